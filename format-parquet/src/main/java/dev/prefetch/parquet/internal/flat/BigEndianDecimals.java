package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;

/**
 * Decimals of precision at most 18 stored as big-endian two's complement bytes (BINARY or
 * FIXED_LEN_BYTE_ARRAY): turned into unscaled longs once per batch.
 */
final class BigEndianDecimals {

  private BigEndianDecimals() {}

  /** The decimal vector of unscaled longs (a {@link ConvertedBinaryAdapter.Conversion}). */
  static ColumnVector vector(
      DataType type,
      VectorArrayPool arrays,
      byte[] data,
      int[] offsets,
      int rows,
      boolean[] nulls) {
    long[] out = arrays.values(long[].class, rows);
    for (int i = 0; i < rows; i++) {
      int p = offsets[i];
      int end = offsets[i + 1];
      long v = 0; // an empty value (a null's) is 0
      if (p < end) {
        v = data[p]; // sign-extended first byte
        for (int j = p + 1; j < end; j++) {
          v = (v << 8) | (data[j] & 0xFF);
        }
      }
      out[i] = v;
    }
    return DecimalVector.ofLongs(type, rows, out, nulls);
  }
}
