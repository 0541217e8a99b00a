package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/** FLOAT: decoded in place. */
final class FloatAdapter implements ColumnAdapter<float[]> {

  private final DataType type;
  private final VectorArrayPool arrays;

  FloatAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public float[] buffer(int rows) {
    return arrays.floats(rows);
  }

  @Override
  public float[] grow(float[] buffer, int capacity) {
    return Arrays.copyOf(buffer, capacity);
  }

  @Override
  public void decode(ValuesDecoder values, float[] buffer, int at, int count) {
    values.readFloats(buffer, at, count);
  }

  @Override
  public void spread(float[] buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.floats(buffer, at, count, defined, nulls);
  }

  @Override
  public ColumnVector vector(float[] buffer, int rows, boolean[] nulls) {
    return new FloatVector(type, rows, buffer, nulls);
  }
}
