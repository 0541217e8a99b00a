package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind INT16, one {@code short} per row. */
public final class ShortVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.INT16);

  private final short[] values;

  /**
   * @param type one of INT16
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public ShortVector(DataType type, int size, short[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Short.BYTES);
    this.values = values;
  }

  /** The value at {@code index}; unspecified when it is null. */
  public short get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public short[] values() {
    checkReadable();
    return values;
  }

  @Override
  Object boxed(int index) {
    return Short.valueOf(values[index]);
  }
}
