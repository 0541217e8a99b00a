package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;

/**
 * INT32 widened to longs once per batch: INT(32, unsigned) as unsigned, TIME(MILLIS) and decimals
 * sign-extended.
 */
final class WideningIntAdapter extends IntBufferAdapter {

  private final DataType type;
  private final boolean unsigned;
  private final VectorArrayPool arrays;
  private final Scratch scratch = new Scratch();

  WideningIntAdapter(DataType type, boolean unsigned, VectorArrayPool arrays) {
    this.type = type;
    this.unsigned = unsigned;
    this.arrays = arrays;
  }

  @Override
  public int[] buffer(int rows) {
    return scratch.ints(rows);
  }

  @Override
  public ColumnVector vector(int[] buffer, int rows, boolean[] nulls) {
    long[] out = arrays.longs(rows);
    if (unsigned) {
      for (int i = 0; i < rows; i++) {
        out[i] = buffer[i] & 0xFFFF_FFFFL;
      }
    } else {
      for (int i = 0; i < rows; i++) {
        out[i] = buffer[i];
      }
    }
    return LongAdapter.vector(type, rows, out, nulls);
  }
}
