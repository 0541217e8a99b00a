package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.spi.VectorArrayPool;

/**
 * What INT32 values become when their mapped type is not int: narrowed or widened into the vector's
 * array once per batch (the choice is made once per batch, its loop runs over plain arrays).
 */
enum IntConversion implements ConvertedPrimitiveAdapter.Conversion<int[]> {
  /** INT(8, signed): bytes. */
  BYTES,
  /** INT(16, signed) or INT(8, unsigned): shorts. */
  SHORTS,
  /** INT(32, unsigned): longs, zero-extended. */
  UNSIGNED_LONGS,
  /** TIME(MILLIS) and decimals: longs, sign-extended. */
  SIGNED_LONGS;

  @Override
  public ColumnVector vector(
      DataType type, VectorArrayPool arrays, int[] buffer, int rows, boolean[] nulls) {
    switch (this) {
      case BYTES:
        byte[] bytes = arrays.values(byte[].class, rows);
        for (int i = 0; i < rows; i++) {
          bytes[i] = (byte) buffer[i];
        }
        return new ByteVector(type, rows, bytes, nulls);
      case SHORTS:
        short[] shorts = arrays.values(short[].class, rows);
        for (int i = 0; i < rows; i++) {
          shorts[i] = (short) buffer[i];
        }
        return new ShortVector(type, rows, shorts, nulls);
      case UNSIGNED_LONGS:
        long[] unsigned = arrays.values(long[].class, rows);
        for (int i = 0; i < rows; i++) {
          unsigned[i] = buffer[i] & 0xFFFF_FFFFL;
        }
        return InPlaceAdapter.longVector(type, rows, unsigned, nulls);
      default:
        long[] signed = arrays.values(long[].class, rows);
        for (int i = 0; i < rows; i++) {
          signed[i] = buffer[i];
        }
        return InPlaceAdapter.longVector(type, rows, signed, nulls);
    }
  }
}
