package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind INT8, one {@code byte} per row. */
public final class ByteVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.INT8);

  private final byte[] values;

  /**
   * @param type one of INT8
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public ByteVector(DataType type, int size, byte[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Byte.BYTES);
    this.values = values;
  }

  /** The value at {@code index}; unspecified when it is null. */
  public byte get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public byte[] values() {
    checkReadable();
    return values;
  }

  @Override
  Object boxed(int index) {
    return Byte.valueOf(values[index]);
  }
}
