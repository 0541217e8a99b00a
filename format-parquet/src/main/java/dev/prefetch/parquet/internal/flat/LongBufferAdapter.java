package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/** Columns whose physical values are INT64: decoded into a {@code long[]}. */
abstract class LongBufferAdapter implements ColumnAdapter<long[]> {

  @Override
  public final long[] grow(long[] buffer, int capacity) {
    return Arrays.copyOf(buffer, capacity);
  }

  @Override
  public final void decode(ValuesDecoder values, long[] buffer, int at, int count) {
    values.readLongs(buffer, at, count);
  }

  @Override
  public final void spread(long[] buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.longs(buffer, at, count, defined, nulls);
  }
}
