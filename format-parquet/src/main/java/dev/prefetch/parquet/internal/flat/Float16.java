package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;

/**
 * IEEE 754 half precision to single precision; every half value has an exact float.
 * FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16 (two bytes, little endian) is widened to floats once
 * per batch.
 */
final class Float16 {

  /** Bytes of a FLOAT16 value. */
  static final int FLOAT16_BYTES = 2;

  private Float16() {}

  /** The floats of FLOAT16 values (a {@link ConvertedBinaryAdapter.Conversion}). */
  static ColumnVector vector(
      DataType type,
      VectorArrayPool arrays,
      byte[] data,
      int[] offsets,
      int rows,
      boolean[] nulls) {
    float[] out = arrays.values(float[].class, rows);
    for (int i = 0; i < rows; i++) {
      int p = offsets[i];
      // a null's value is empty: its slot gets 0
      out[i] =
          offsets[i + 1] - p == FLOAT16_BYTES
              ? toFloat((data[p] & 0xFF) | (data[p + 1] & 0xFF) << 8)
              : 0f;
    }
    return new FloatVector(type, rows, out, nulls);
  }

  static float toFloat(int half) {
    int sign = (half & 0x8000) << 16;
    int exponent = (half >>> 10) & 0x1F;
    int mantissa = half & 0x3FF;
    if (exponent == 0x1F) {
      // infinity or NaN: keep the payload in the top mantissa bits
      return Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
    }
    if (exponent == 0) {
      if (mantissa == 0) {
        return Float.intBitsToFloat(sign);
      }
      // subnormal half: mantissa * 2^-24, exact in float
      float magnitude = mantissa * 0x1p-24f;
      return sign == 0 ? magnitude : -magnitude;
    }
    return Float.intBitsToFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
  }
}
