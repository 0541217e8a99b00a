package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.spi.VectorArrayPool;

/**
 * INT64 values that need more than a long in their mapped type (INT(64, unsigned) as DECIMAL(20,
 * 0), or an INT64 decimal declared with a precision above 18): big-endian bytes once per batch,
 * with a leading zero byte for unsigned values so that they stay positive. A null gets an empty
 * value.
 */
enum Int64Bytes implements ConvertedPrimitiveAdapter.Conversion<long[]> {
  SIGNED_BYTES,
  UNSIGNED_BYTES;

  @Override
  public ColumnVector vector(
      DataType type, VectorArrayPool arrays, long[] buffer, int rows, boolean[] nulls) {
    boolean unsigned = this == UNSIGNED_BYTES;
    int width = unsigned ? 9 : 8;
    byte[] data = arrays.binaryData(Math.multiplyExact(rows, width));
    int[] offsets = arrays.binaryOffsets(rows + 1);
    int at = 0;
    offsets[0] = 0;
    for (int i = 0; i < rows; i++) {
      if (nulls == null || !nulls[i]) {
        long v = buffer[i];
        if (unsigned) {
          data[at++] = 0;
        }
        for (int b = 0; b < 8; b++) {
          data[at++] = (byte) (v >>> (56 - 8 * b));
        }
      }
      offsets[i + 1] = at;
    }
    return BinaryAdapter.vector(type, rows, data, offsets, nulls);
  }
}
