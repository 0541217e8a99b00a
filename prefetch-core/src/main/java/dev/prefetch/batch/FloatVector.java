package dev.prefetch.batch;

/** Values of kind FLOAT32, one {@code float} per row. */
public final class FloatVector extends ColumnVector {

  private final float[] values;

  /**
   * @param type one of FLOAT32
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public FloatVector(DataType type, int size, float[] values, boolean[] nulls) {
    super(type, size, nulls);
    checkKind(type);
    checkLength("values", values.length, size);
    this.values = values;
  }

  private static void checkKind(DataType type) {
    switch (type.kind()) {
      case FLOAT32:
        return;
      default:
        throw new IllegalArgumentException("FloatVector cannot hold " + type);
    }
  }

  /** The value at {@code index}; unspecified when it is null. */
  public float get(int index) {
    checkReadable();
    return values[index];
  }

  /** The backing array (may be longer than {@link #size()}). Do not modify. */
  public float[] values() {
    checkReadable();
    return values;
  }

  @Override
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : Float.valueOf(values[index]);
  }

  @Override
  public long sizeInBytes() {
    return (long) values.length * 4 + nullMaskBytes();
  }
}
