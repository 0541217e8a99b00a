package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.spi.VectorArrayPool;

/**
 * What byte-array values become when their mapped type is primitive, converted once per batch (the
 * choice is made once per batch, its loop runs over the plain arrays).
 */
enum BinaryConversion implements ConvertedBinaryAdapter.Conversion {
  /**
   * Decimals of precision at most 18 stored as big-endian two's complement bytes (BINARY or
   * FIXED_LEN_BYTE_ARRAY): unscaled longs.
   */
  DECIMAL,
  /** FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16: widened exactly to floats. */
  FLOAT16,
  /**
   * INT96 timestamps: microseconds or nanoseconds since the epoch (see {@link Int96Timestamps}).
   */
  INT96;

  @Override
  public ColumnVector vector(
      DataType type,
      VectorArrayPool arrays,
      byte[] data,
      int[] offsets,
      int rows,
      boolean[] nulls) {
    switch (this) {
      case DECIMAL:
        long[] unscaled = arrays.values(long[].class, rows);
        for (int i = 0; i < rows; i++) {
          unscaled[i] = bigEndian(data, offsets[i], offsets[i + 1]);
        }
        return DecimalVector.ofLongs(type, rows, unscaled, nulls);
      case FLOAT16:
        float[] floats = arrays.values(float[].class, rows);
        for (int i = 0; i < rows; i++) {
          int p = offsets[i];
          // a null's value is empty: its slot gets 0
          floats[i] =
              offsets[i + 1] - p == Float16.FLOAT16_BYTES
                  ? Float16.toFloat((data[p] & 0xFF) | (data[p + 1] & 0xFF) << 8)
                  : 0f;
        }
        return new FloatVector(type, rows, floats, nulls);
      default:
        boolean nanos = type.timeUnit() == DataType.TimeUnit.NANOS;
        long[] timestamps = arrays.values(long[].class, rows);
        for (int i = 0; i < rows; i++) {
          boolean isNull = nulls != null && nulls[i];
          int start = offsets[i];
          timestamps[i] = Int96Timestamps.value(data, start, offsets[i + 1] - start, isNull, nanos);
        }
        return new LongVector(type, rows, timestamps, nulls);
    }
  }

  /** The big-endian two's complement number in {@code data[start..end)}; 0 when it is empty. */
  private static long bigEndian(byte[] data, int start, int end) {
    if (start == end) {
      return 0; // an empty value (a null's)
    }
    long v = data[start]; // sign-extended first byte
    for (int j = start + 1; j < end; j++) {
      v = (v << 8) | (data[j] & 0xFF);
    }
    return v;
  }
}
