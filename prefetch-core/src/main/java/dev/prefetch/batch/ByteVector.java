package dev.prefetch.batch;

/** Values of kind INT8, one {@code byte} per row. */
public final class ByteVector extends ColumnVector {

  private final byte[] values;

  /**
   * @param type one of INT8
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public ByteVector(DataType type, int size, byte[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case INT8:
        return;
      default:
        throw new IllegalArgumentException("ByteVector cannot hold " + type);
    }
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
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Byte.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 1 + nullMaskBytes();
  }
}
