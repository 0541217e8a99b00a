package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind FLOAT64, one {@code double} per row. */
public final class DoubleVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.FLOAT64);

  private final double[] values;

  /**
   * @param type one of FLOAT64
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public DoubleVector(DataType type, int size, double[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Double.BYTES);
    this.values = values;
  }

  /** The value at {@code index}; unspecified when it is null. */
  public double get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public double[] values() {
    checkReadable();
    return values;
  }

  @Override
  Object boxed(int index) {
    return Double.valueOf(values[index]);
  }
}
