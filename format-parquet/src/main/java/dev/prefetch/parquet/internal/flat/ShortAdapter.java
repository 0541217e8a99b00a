package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ShortVector;

/** INT32 annotated INT(16, signed) or INT(8, unsigned): narrowed to shorts once per batch. */
final class ShortAdapter extends IntBufferAdapter {

  private final DataType type;
  private final VectorArrayPool arrays;
  private final Scratch scratch = new Scratch();

  ShortAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public int[] buffer(int rows) {
    return scratch.ints(rows);
  }

  @Override
  public ColumnVector vector(int[] buffer, int rows, boolean[] nulls) {
    short[] out = arrays.shorts(rows);
    for (int i = 0; i < rows; i++) {
      out[i] = (short) buffer[i];
    }
    return new ShortVector(type, rows, out, nulls);
  }
}
