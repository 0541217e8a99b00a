package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;

/** INT32 annotated INT(8, signed): narrowed to bytes once per batch. */
final class ByteAdapter extends IntBufferAdapter {

  private final DataType type;
  private final VectorArrayPool arrays;
  private final Scratch scratch = new Scratch();

  ByteAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public int[] buffer(int rows) {
    return scratch.ints(rows);
  }

  @Override
  public ColumnVector vector(int[] buffer, int rows, boolean[] nulls) {
    byte[] out = arrays.bytes(rows);
    for (int i = 0; i < rows; i++) {
      out[i] = (byte) buffer[i];
    }
    return new ByteVector(type, rows, out, nulls);
  }
}
