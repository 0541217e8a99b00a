package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind BOOLEAN, one {@code boolean} per row. */
public final class BooleanVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.BOOLEAN);

  private final boolean[] values;

  /**
   * @param type one of BOOLEAN
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public BooleanVector(DataType type, int size, boolean[] values, boolean[] nulls) {
    // a boolean[] entry takes one byte
    super(type, KINDS, size, nulls, values.length, Byte.BYTES);
    this.values = values;
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
  Object boxed(int index) {
    return Boolean.valueOf(values[index]);
  }
}
