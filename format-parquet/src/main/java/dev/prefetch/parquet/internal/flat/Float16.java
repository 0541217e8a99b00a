package dev.prefetch.parquet.internal.flat;

/**
 * IEEE 754 half precision to single precision; every half value has an exact float. FLOAT16 values
 * are FIXED_LEN_BYTE_ARRAY(2), little endian.
 */
final class Float16 {

  /** Bytes of a FLOAT16 value. */
  static final int FLOAT16_BYTES = 2;

  private Float16() {}

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
