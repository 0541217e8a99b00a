package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind INT32 and DATE, one {@code int} per row. */
public final class IntVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS =
      EnumSet.of(DataType.Kind.INT32, DataType.Kind.DATE);

  private final int[] values;

  /**
   * @param type one of INT32 and DATE
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public IntVector(DataType type, int size, int[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Integer.BYTES);
    this.values = values;
  }

  /** The value at {@code index}; unspecified when it is null. */
  public int get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public int[] values() {
    checkReadable();
    return values;
  }

  @Override
  Object boxed(int index) {
    return Integer.valueOf(values[index]);
  }
}
