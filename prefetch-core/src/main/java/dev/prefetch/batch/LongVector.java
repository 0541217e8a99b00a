package dev.prefetch.batch;

/** Values of kind INT64, TIME and TIMESTAMP, one {@code long} per row. */
public final class LongVector extends ColumnVector {

  private final long[] values;

  /**
   * @param type one of INT64, TIME and TIMESTAMP
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public LongVector(DataType type, int size, long[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case INT64:
      case TIME:
      case TIMESTAMP:
        return;
      default:
        throw new IllegalArgumentException("LongVector cannot hold " + type);
    }
  }

  /** The value at {@code index}; unspecified when it is null. */
  public long get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public long[] values() {
    checkReadable();
    return values;
  }

  @Override
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Long.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 8 + nullMaskBytes();
  }
}
