package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.IntVector;

/** INT32 as it is (plain, INT(32, signed), INT(16, unsigned), DATE): values decode in place. */
final class IntAdapter extends IntBufferAdapter {

  private final DataType type;
  private final VectorArrayPool arrays;

  IntAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public int[] buffer(int rows) {
    return arrays.ints(rows);
  }

  @Override
  public ColumnVector vector(int[] buffer, int rows, boolean[] nulls) {
    return new IntVector(type, rows, buffer, nulls);
  }
}
