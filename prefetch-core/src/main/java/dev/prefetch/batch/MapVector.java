package dev.prefetch.batch;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * MAP values: row {@code i} holds the entries {@code offsets[i] .. offsets[i + 1]} of the key and
 * value vectors, in file order (duplicate keys are kept as the file has them).
 */
public final class MapVector extends ColumnVector {

  private final int[] offsets;
  private final ColumnVector keys;
  private final ColumnVector values;

  public MapVector(
      DataType type,
      int size,
      int[] offsets,
      ColumnVector keys,
      ColumnVector values,
      boolean[] nulls) {
    super(type, size, nulls);
    if (type.kind() != DataType.Kind.MAP) {
      throw new IllegalArgumentException("MapVector cannot hold " + type);
    }
    checkLength("offsets", offsets.length, size + 1);
    if (offsets[size] > keys.size() || offsets[size] > values.size()) {
      throw new IllegalArgumentException(
          "last offset "
              + offsets[size]
              + " is past the entry count "
              + Math.min(keys.size(), values.size()));
    }
    this.offsets = offsets;
    this.keys = keys;
    this.values = values;
  }

  public int[] offsets() {
    checkReadable();
    return offsets;
  }

  public ColumnVector keys() {
    checkReadable();
    return keys;
  }

  public ColumnVector values() {
    checkReadable();
    return values;
  }

  public int start(int index) {
    checkReadable();
    return offsets[index];
  }

  public int length(int index) {
    checkReadable();
    return offsets[index + 1] - offsets[index];
  }

  /** An unmodifiable {@code List} of {@code Map.Entry} (key, value), boxed, or null. */
  @Override
  public Object getObject(int index) {
    checkReadable();
    if (isNull(index)) {
      return null;
    }
    List<Map.Entry<Object, Object>> entries = new ArrayList<>(length(index));
    for (int i = offsets[index]; i < offsets[index + 1]; i++) {
      entries.add(new AbstractMap.SimpleImmutableEntry<>(keys.getObject(i), values.getObject(i)));
    }
    return Collections.unmodifiableList(entries);
  }

  @Override
  public long sizeInBytes() {
    return 4L * offsets.length + keys.sizeInBytes() + values.sizeInBytes() + nullMaskBytes();
  }

  @Override
  void markReleased() {
    super.markReleased();
    keys.markReleased();
    values.markReleased();
  }
}
