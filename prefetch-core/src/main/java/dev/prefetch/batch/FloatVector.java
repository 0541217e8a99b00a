package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind FLOAT32, one {@code float} per row. */
public final class FloatVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.FLOAT32);

  private final float[] values;

  /**
   * @param type one of FLOAT32
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public FloatVector(DataType type, int size, float[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Float.BYTES);
    this.values = values;
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
  Object boxed(int index) {
    return Float.valueOf(values[index]);
  }
}
