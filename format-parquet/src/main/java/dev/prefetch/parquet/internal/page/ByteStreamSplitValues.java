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
  public void readInts(int[] out, int offset, int count) {
    check(count);
    for (int i = 0; i < count; i++) {
      out[offset + i] = int32(next + i);
    }
    next += count;
  }

  @Override
  public void readLongs(long[] out, int offset, int count) {
    check(count);
    for (int i = 0; i < count; i++) {
      out[offset + i] = int64(next + i);
    }
    next += count;
  }

  @Override
  public void readFloats(float[] out, int offset, int count) {
    check(count);
    for (int i = 0; i < count; i++) {
      out[offset + i] = Float.intBitsToFloat(int32(next + i));
    }
    next += count;
  }

  @Override
  public void readDoubles(double[] out, int offset, int count) {
    check(count);
    for (int i = 0; i < count; i++) {
      out[offset + i] = Double.longBitsToDouble(int64(next + i));
    }
    next += count;
  }

  @Override
  public void readBooleans(boolean[] out, int offset, int count) {
    throw new UnsupportedOperationException("BYTE_STREAM_SPLIT " + type);
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
