package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/** BOOLEAN: decoded in place. */
final class BooleanAdapter implements ColumnAdapter<boolean[]> {

  private final DataType type;
  private final VectorArrayPool arrays;

  BooleanAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public boolean[] buffer(int rows) {
    return arrays.booleans(rows);
  }

  @Override
  public boolean[] grow(boolean[] buffer, int capacity) {
    return Arrays.copyOf(buffer, capacity);
  }

  @Override
  public void decode(ValuesDecoder values, boolean[] buffer, int at, int count) {
    values.readBooleans(buffer, at, count);
  }

  @Override
  public void spread(boolean[] buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.booleans(buffer, at, count, defined, nulls);
  }

  @Override
  public ColumnVector vector(boolean[] buffer, int rows, boolean[] nulls) {
    return new BooleanVector(type, rows, buffer, nulls);
  }
}
