package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/** DOUBLE: decoded in place. */
final class DoubleAdapter implements ColumnAdapter<double[]> {

  private final DataType type;
  private final VectorArrayPool arrays;

  DoubleAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public double[] buffer(int rows) {
    return arrays.doubles(rows);
  }

  @Override
  public double[] grow(double[] buffer, int capacity) {
    return Arrays.copyOf(buffer, capacity);
  }

  @Override
  public void decode(ValuesDecoder values, double[] buffer, int at, int count) {
    values.readDoubles(buffer, at, count);
  }

  @Override
  public void spread(double[] buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.doubles(buffer, at, count, defined, nulls);
  }

  @Override
  public ColumnVector vector(double[] buffer, int rows, boolean[] nulls) {
    return new DoubleVector(type, rows, buffer, nulls);
  }
}
