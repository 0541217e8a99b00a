package dev.prefetch.parquet.internal.page;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * BYTE_STREAM_SPLIT values (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY): the page holds one
 * stream per byte of a value, stream {@code k} holding byte {@code k} of every value, so value
 * {@code i} is gathered from {@code data[start + k * n + i]}.
 */
final class ByteStreamSplitValues implements ValuesDecoder {

  private final byte[] data;
  private final int start;
  private final int width;

  /** Values in the page (the length of each stream). */
  private final int n;

  private final PrimitiveTypeName type;
  private final byte[] value;
  private int next;

  ByteStreamSplitValues(byte[] data, int offset, int end, PrimitiveTypeName type, int width) {
    if (width <= 0 || (end - offset) % width != 0) {
      throw new IllegalStateException(
          "BYTE_STREAM_SPLIT page of " + (end - offset) + " bytes for values of " + width);
    }
    this.data = data;
    this.start = offset;
    this.width = width;
    this.n = (end - offset) / width;
    this.type = type;
    this.value = new byte[width];
  }

  private void check(int count) {
    if (count > n - next) {
      throw new IllegalStateException(
          "BYTE_STREAM_SPLIT page has " + (n - next) + " values left, " + count + " asked");
    }
  }

  private int int32(int i) {
    int p = start + i;
    return (data[p] & 0xFF)
        | (data[p + n] & 0xFF) << 8
        | (data[p + 2 * n] & 0xFF) << 16
        | (data[p + 3 * n] & 0xFF) << 24;
  }

  private long int64(int i) {
    long v = 0;
    for (int k = 7; k >= 0; k--) {
      v = (v << 8) | (data[start + k * n + i] & 0xFF);
    }
    return v;
  }

  @Override
  public void read(Object out, int offset, int count) {
    check(count);
    int from = next;
    if (out instanceof int[] o) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = int32(from + i);
      }
    } else if (out instanceof long[] o) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = int64(from + i);
      }
    } else if (out instanceof float[] o) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = Float.intBitsToFloat(int32(from + i));
      }
    } else if (out instanceof double[] o) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = Double.longBitsToDouble(int64(from + i));
      }
    } else {
      throw ValuesDecoder.unsupported(this, out.getClass().getSimpleName());
    }
    next += count;
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    check(count);
    for (int i = 0; i < count; i++) {
      for (int k = 0; k < width; k++) {
        value[k] = data[start + k * n + next];
      }
      out.append(value, 0, width);
      next++;
    }
  }

  @Override
  public void skip(int count) {
    check(count);
    next += count;
  }
}
