package dev.prefetch.parquet.internal.page;

import java.nio.ByteBuffer;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * PLAIN values: little-endian fixed-width numbers copied with one bulk buffer transfer per call (a
 * memory copy on little-endian machines), bit-packed booleans, length-prefixed or fixed-length byte
 * arrays (FIXED_LEN_BYTE_ARRAY, and INT96 as 12-byte values). Also decodes dictionary pages, which
 * are PLAIN.
 */
final class PlainValues implements ValuesDecoder {

  /** Bytes of an INT96 value. */
  private static final int INT96_BYTES = 12;

  private final byte[] data;
  private final int end;
  private final PrimitiveTypeName type;
  private final int fixedLength;
  private int pos;
  private int bitIndex; // booleans: bits consumed from data[pos]

  PlainValues(byte[] data, int offset, int end, PrimitiveTypeName type, int fixedLength) {
    this.data = data;
    this.pos = offset;
    this.end = end;
    this.type = type;
    this.fixedLength = type == PrimitiveTypeName.INT96 ? INT96_BYTES : fixedLength;
  }

  private ByteBuffer take(int bytes, int count) {
    long total = (long) bytes * count;
    if (total > end - pos) {
      throw new IllegalStateException(
          "PLAIN "
              + type
              + " values past the end of the page: "
              + count
              + " values need "
              + total
              + " bytes, "
              + (end - pos)
              + " left");
    }
    ByteBuffer buffer = ByteBuffer.wrap(data, pos, (int) total);
    pos += (int) total;
    return buffer;
  }

  @Override
  public void read(Object out, int offset, int count) {
    if (out instanceof boolean[] booleans && type == PrimitiveTypeName.BOOLEAN) {
      readBooleans(booleans, offset, count);
    } else {
      LittleEndian.copy(take(LittleEndian.width(out), count), out, offset, count);
    }
  }

  private void readBooleans(boolean[] out, int offset, int count) {
    long bitsLeft = (long) (end - pos) * 8 - bitIndex;
    if (count > bitsLeft) {
      throw new IllegalStateException("PLAIN booleans past the end of the page");
    }
    int i = 0;
    while (i < count && bitIndex != 0) { // finish a byte begun by the previous call
      out[offset + i++] = ((data[pos] >>> bitIndex) & 1) != 0;
      if (++bitIndex == 8) {
        bitIndex = 0;
        pos++;
      }
    }
    for (; i + 8 <= count; i += 8) { // whole bytes, eight values each, without a branch per bit
      int bits = data[pos++];
      int at = offset + i;
      out[at] = (bits & 1) != 0;
      out[at + 1] = (bits & 2) != 0;
      out[at + 2] = (bits & 4) != 0;
      out[at + 3] = (bits & 8) != 0;
      out[at + 4] = (bits & 16) != 0;
      out[at + 5] = (bits & 32) != 0;
      out[at + 6] = (bits & 64) != 0;
      out[at + 7] = (bits & 128) != 0;
    }
    for (; i < count; i++) {
      out[offset + i] = ((data[pos] >>> bitIndex) & 1) != 0;
      if (++bitIndex == 8) {
        bitIndex = 0;
        pos++;
      }
    }
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    if (type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY || type == PrimitiveTypeName.INT96) {
      if ((long) fixedLength * count > end - pos) {
        throw new IllegalStateException("PLAIN fixed-length values past the end of the page");
      }
      for (int i = 0; i < count; i++) {
        out.append(data, pos, fixedLength);
        pos += fixedLength;
      }
      return;
    }
    pos = out.appendLengthPrefixed(data, pos, end, count);
  }

  @Override
  public void skip(int count) {
    switch (type) {
      case INT32, FLOAT -> take(4, count);
      case INT64, DOUBLE -> take(8, count);
      case BOOLEAN -> {
        long bits = (long) bitIndex + count;
        if (bits > (long) (end - pos) * 8) {
          throw new IllegalStateException("PLAIN booleans past the end of the page");
        }
        pos += (int) (bits >>> 3);
        bitIndex = (int) (bits & 7);
      }
      case FIXED_LEN_BYTE_ARRAY, INT96 -> take(fixedLength, count);
      case BINARY -> {
        for (int i = 0; i < count; i++) {
          pos += 4 + LittleEndian.length(data, pos, end, "PLAIN byte array", null);
        }
      }
      default -> throw new UnsupportedOperationException("PLAIN " + type);
    }
  }
}
