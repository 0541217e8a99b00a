package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;

/**
 * FIXED_LEN_BYTE_ARRAY(2) annotated FLOAT16 (two bytes, little endian): widened exactly to floats
 * once per batch.
 */
final class Float16Adapter extends ConvertedBinaryAdapter {

  private static final int FLOAT16_BYTES = 2;

  Float16Adapter(DataType type, VectorArrayPool arrays) {
    super(type, FLOAT16_BYTES, arrays);
  }

  @Override
  ColumnVector convert(byte[] data, int[] offsets, int rows, boolean[] nulls) {
    float[] out = arrays.values(float[].class, rows);
    for (int i = 0; i < rows; i++) {
      int p = offsets[i];
      // a null's value is empty: its slot gets 0
      out[i] =
          offsets[i + 1] - p == FLOAT16_BYTES
              ? Float16.toFloat((data[p] & 0xFF) | (data[p + 1] & 0xFF) << 8)
              : 0f;
    }
    return new FloatVector(type, rows, out, nulls);
  }
}
