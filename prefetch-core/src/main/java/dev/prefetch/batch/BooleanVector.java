package dev.prefetch.batch;

/** Values of kind BOOLEAN, one {@code boolean} per row. */
public final class BooleanVector extends ColumnVector {

  private final boolean[] values;

  /**
   * @param type one of BOOLEAN
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public BooleanVector(DataType type, int size, boolean[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case BOOLEAN:
        return;
      default:
        throw new IllegalArgumentException("BooleanVector cannot hold " + type);
    }
  }

  /** The value at {@code index}; unspecified when it is null. */
  public boolean get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public boolean[] values() {
    checkReadable();
    return values;
  }

  @Override
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Boolean.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 1 + nullMaskBytes();
  }
}
