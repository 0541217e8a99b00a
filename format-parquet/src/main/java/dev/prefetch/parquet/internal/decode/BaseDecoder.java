package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.DataType;
import java.util.Arrays;
import java.util.Objects;

/** What every decoder shares: its type and the null mask and size of the append path. */
abstract class BaseDecoder implements ColumnDecoder {

  private final DataType type;
  /** Append path: values appended so far, and the null mask (allocated at the first null). */
  int size;
  boolean[] nulls;

  BaseDecoder(DataType type) {
    this.type = Objects.requireNonNull(type, "type is null");
  }

  @Override
  public final DataType type() {
    return type;
  }

  /** Capacity of the value storage of the append path. */
  abstract int capacity();

  /** Grows the value storage of the append path to at least {@code capacity}. */
  abstract void growTo(int capacity);

  /** Makes room for one more appended entry. */
  final void ensureRoom() {
    if (size == capacity()) {
      growTo(Growth.grow(capacity(), size + 1));
    }
    if (nulls != null && nulls.length < capacity()) {
      nulls = Arrays.copyOf(nulls, capacity());
    }
  }

  @Override
  public final void appendNull() {
    ensureRoom();
    if (nulls == null) {
      nulls = new boolean[capacity()];
    }
    nulls[size++] = true;
    afterNull();
  }

  /** Called after a null was appended (size already counts it). */
  void afterNull() {
  }

  /** The null mask of the append path for the vector being finished; resets size and mask. */
  final boolean[] takeNulls() {
    boolean[] taken = nulls;
    nulls = null;
    size = 0;
    return taken;
  }
}
