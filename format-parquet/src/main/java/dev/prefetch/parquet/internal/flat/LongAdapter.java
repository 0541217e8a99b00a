package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.LongVector;

/** INT64 as it is (plain, timestamps, times, decimals up to precision 18): decoded in place. */
final class LongAdapter extends LongBufferAdapter {

  private final DataType type;
  private final VectorArrayPool arrays;

  LongAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public long[] buffer(int rows) {
    return arrays.longs(rows);
  }

  @Override
  public ColumnVector vector(long[] buffer, int rows, boolean[] nulls) {
    return vector(type, rows, buffer, nulls);
  }

  /** A vector of longs: a decimal's unscaled values, or the values of any other long type. */
  static ColumnVector vector(DataType type, int rows, long[] values, boolean[] nulls) {
    return type.kind() == DataType.Kind.DECIMAL
        ? DecimalVector.ofLongs(type, rows, values, nulls)
        : new LongVector(type, rows, values, nulls);
  }
}
