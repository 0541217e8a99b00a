package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/** Values of kind INT64, TIME and TIMESTAMP, one {@code long} per row. */
public final class LongVector extends FixedWidthVector {

  private static final Set<DataType.Kind> KINDS =
      EnumSet.of(DataType.Kind.INT64, DataType.Kind.TIME, DataType.Kind.TIMESTAMP);

  private final long[] values;

  /**
   * @param type one of INT64, TIME and TIMESTAMP
   * @param size number of values
   * @param values the values; ownership passes to the vector
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public LongVector(DataType type, int size, long[] values, boolean[] nulls) {
    super(type, KINDS, size, nulls, values.length, Long.BYTES);
    this.values = values;
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
  Object boxed(int index) {
    return Long.valueOf(values[index]);
  }
}
