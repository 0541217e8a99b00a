package dev.prefetch.batch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The part that the vectors whose row {@code i} is the span {@code offsets[i] .. offsets[i + 1]} of
 * something else share: the offsets, their check at construction, and a span's start and length.
 * {@code offsets} has at least {@code size + 1} entries, and its first {@code size + 1} never
 * decrease; a null row has an empty span.
 */
abstract sealed class OffsetVector extends ColumnVector
    permits BinaryVector, ListVector, MapVector {

  /** Read directly by the subclasses' value accessors, which do their own release check. */
  final int[] offsets;

  /**
   * @param offsets {@code size + 1} offsets; ownership passes to the vector
   * @param limit how many entries the spans index; the last offset must not pass it
   * @param limitName what those entries are, for the error message
   */
  OffsetVector(
      DataType type,
      Set<DataType.Kind> kinds,
      int size,
      int[] offsets,
      int limit,
      String limitName,
      boolean[] nulls) {
    super(type, kinds, size, nulls);
    checkOffsets(offsets, size, limit, limitName);
    this.offsets = offsets;
  }

  /** The {@code size + 1} start offsets. Do not modify. */
  public final int[] offsets() {
    checkReadable();
    return offsets;
  }

  /** Where row {@code index}'s span starts. */
  public final int start(int index) {
    checkReadable();
    return offsets[index];
  }

  /** How many entries row {@code index}'s span holds. */
  public final int length(int index) {
    checkReadable();
    return offsets[index + 1] - offsets[index];
  }

  /**
   * Row {@code index}'s entries, each made by {@code entryAt} from its position, as an unmodifiable
   * list; null for a null row. For the boxing {@link #getObject(int)} of nested rows.
   */
  final <T> List<T> boxedSpan(int index, IntFunction<T> entryAt) {
    checkReadable();
    if (isNull(index)) {
      return null;
    }
    List<T> entries = new ArrayList<>(length(index));
    for (int i = offsets[index]; i < offsets[index + 1]; i++) {
      entries.add(entryAt.apply(i));
    }
    return Collections.unmodifiableList(entries);
  }

  /** Heap bytes of the offsets and the null mask. */
  final long offsetAndNullBytes() {
    return 4L * offsets.length + nullMaskBytes();
  }
}
