package dev.prefetch.batch;

/** Values of kind FLOAT64, one {@code double} per row. */
public final class DoubleVector extends ColumnVector {

  private final double[] values;

  /**
   * @param type one of FLOAT64
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public DoubleVector(DataType type, int size, double[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case FLOAT64:
        return;
      default:
        throw new IllegalArgumentException("DoubleVector cannot hold " + type);
    }
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
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Double.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 8 + nullMaskBytes();
  }
}
