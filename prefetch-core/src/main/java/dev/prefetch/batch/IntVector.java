package dev.prefetch.batch;

/** Values of kind INT32 and DATE, one {@code int} per row. */
public final class IntVector extends ColumnVector {

  private final int[] values;

  /**
   * @param type one of INT32 and DATE
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public IntVector(DataType type, int size, int[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case INT32:
      case DATE:
        return;
      default:
        throw new IllegalArgumentException("IntVector cannot hold " + type);
    }
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
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Integer.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 4 + nullMaskBytes();
  }
}
