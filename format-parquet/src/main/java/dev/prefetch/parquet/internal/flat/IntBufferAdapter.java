package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/** Columns whose physical values are INT32: decoded into an {@code int[]}. */
abstract class IntBufferAdapter implements ColumnAdapter<int[]> {

  @Override
  public final int[] grow(int[] buffer, int capacity) {
    return Arrays.copyOf(buffer, capacity);
  }

  @Override
  public final void decode(ValuesDecoder values, int[] buffer, int at, int count) {
    values.readInts(buffer, at, count);
  }

  @Override
  public final void spread(int[] buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.ints(buffer, at, count, defined, nulls);
  }
}
