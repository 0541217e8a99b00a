package dev.prefetch.batch;

/** Values of kind INT16, one {@code short} per row. */
public final class ShortVector extends ColumnVector {

  private final short[] values;

  /**
   * @param type one of INT16
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public ShortVector(DataType type, int size, short[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case INT16:
        return;
      default:
        throw new IllegalArgumentException("ShortVector cannot hold " + type);
    }
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
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Short.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 2 + nullMaskBytes();
  }
}
