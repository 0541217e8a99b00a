package dev.prefetch.batch;

import java.util.AbstractMap;
import java.util.EnumSet;
import java.util.Set;

/**
 * MAP values: row {@code i} holds the entries {@code offsets[i] .. offsets[i + 1]} of the key and
 * value vectors, in file order (duplicate keys are kept as the file has them).
 */
public final class MapVector extends OffsetVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.MAP);

  private final ColumnVector keys;
  private final ColumnVector values;

  public MapVector(
      DataType type,
      int size,
      int[] offsets,
      ColumnVector keys,
      ColumnVector values,
      boolean[] nulls) {
    super(type, KINDS, size, offsets, Math.min(keys.size(), values.size()), "entry count", nulls);
    this.keys = keys;
    this.values = values;
  }

  public ColumnVector keys() {
    checkReadable();
    return keys;
  }

  public ColumnVector values() {
    checkReadable();
    return values;
  }

  /** An unmodifiable {@code List} of {@code Map.Entry} (key, value), boxed, or null. */
  @Override
  public Object getObject(int index) {
    return boxedSpan(
        index, i -> new AbstractMap.SimpleImmutableEntry<>(keys.getObject(i), values.getObject(i)));
  }

  @Override
  public long sizeInBytes() {
    return keys.sizeInBytes() + values.sizeInBytes() + offsetAndNullBytes();
  }

  @Override
  void markReleased() {
    super.markReleased();
    keys.markReleased();
    values.markReleased();
  }
}
