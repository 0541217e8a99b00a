package dev.prefetch.parquet.internal.page;

/**
 * DELTA_BINARY_PACKED int32 / int64 values, decoded block by block when the page is opened: a
 * header (block size, miniblocks per block, value count, first value), then per block a minimum
 * delta, one bit width per miniblock and the bit-packed deltas. Arithmetic wraps as the format
 * specifies (int32 columns keep the low 32 bits).
 */
final class DeltaBinaryPackedValues implements ValuesDecoder {

  private final long[] values;
  private int next;

  /** Where the encoded values end in the page (the data after them is another encoding's). */
  private final int end;

  DeltaBinaryPackedValues(byte[] data, int offset, int end, int maxValues) {
    Cursor in = new Cursor(data, offset, end);
    int blockSize = in.unsignedVarInt();
    int miniblocks = in.unsignedVarInt();
    int total = in.unsignedVarInt();
    if (blockSize <= 0
        || blockSize % 128 != 0
        || miniblocks <= 0
        || blockSize % miniblocks != 0
        || (blockSize / miniblocks) % 32 != 0) {
      throw new IllegalStateException(
          "invalid DELTA_BINARY_PACKED header: block size "
              + blockSize
              + ", miniblocks "
              + miniblocks);
    }
    if (total < 0 || total > maxValues) {
      throw new IllegalStateException(
          "DELTA_BINARY_PACKED page claims "
              + total
              + " values, the page holds at most "
              + maxValues);
    }
    values = new long[total];
    // The header's first value is written even when there are no values.
    long value = in.zigZagVarLong();
    if (total == 0) {
      this.end = in.pos;
      return;
    }
    values[0] = value;
    int perMiniblock = blockSize / miniblocks;
    int[] widths = new int[miniblocks];
    int produced = 1;
    while (produced < total) {
      long minDelta = in.zigZagVarLong();
      for (int m = 0; m < miniblocks; m++) {
        widths[m] = in.unsignedByte();
        if (widths[m] > 64) {
          throw new IllegalStateException("DELTA_BINARY_PACKED bit width " + widths[m]);
        }
      }
      for (int m = 0; m < miniblocks && produced < total; m++) {
        int width = widths[m];
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long buffer = 0;
        int bits = 0;
        int count = Math.min(perMiniblock, total - produced);
        int start = in.pos;
        for (int i = 0; i < count; i++) {
          long delta;
          if (width == 0) {
            delta = 0;
          } else {
            // Gather width bits, least significant first; widths above 56 need two steps.
            delta = 0;
            int have = 0;
            while (have < width) {
              if (bits == 0) {
                buffer = in.unsignedByteAt(start++);
                bits = 8;
              }
              int take = Math.min(width - have, bits);
              delta |= (buffer & ((1L << take) - 1)) << have;
              buffer >>>= take;
              bits -= take;
              have += take;
            }
            delta &= mask;
          }
          value += minDelta + delta;
          values[produced++] = value;
        }
        // A miniblock always occupies its full width x values-per-miniblock bytes.
        in.skip((int) ((long) perMiniblock * width / 8));
      }
    }
    this.end = in.pos;
  }

  /** The position just past the encoded values. */
  int end() {
    return end;
  }

  /** Values not read yet. */
  int remaining() {
    return values.length - next;
  }

  private void check(int count) {
    if (count > values.length - next) {
      throw new IllegalStateException(
          "DELTA_BINARY_PACKED page has "
              + (values.length - next)
              + " values left, "
              + count
              + " asked");
    }
  }

  @Override
  public void read(Object out, int offset, int count) {
    check(count);
    if (out instanceof long[] longs) {
      System.arraycopy(values, next, longs, offset, count);
    } else if (out instanceof int[] ints) {
      for (int i = 0; i < count; i++) {
        ints[offset + i] = (int) values[next + i];
      }
    } else {
      throw ValuesDecoder.unsupported(this, out.getClass().getSimpleName());
    }
    next += count;
  }

  @Override
  public void skip(int count) {
    check(count);
    next += count;
  }

  /** Bounds-checked reading of the header and block fields. */
  private static final class Cursor {
    private final byte[] data;
    private final int end;
    private int pos;

    Cursor(byte[] data, int pos, int end) {
      this.data = data;
      this.pos = pos;
      this.end = end;
    }

    int unsignedByte() {
      if (pos >= end) {
        throw new IllegalStateException("DELTA_BINARY_PACKED data ended early");
      }
      return data[pos++] & 0xFF;
    }

    long unsignedByteAt(int at) {
      if (at >= end) {
        throw new IllegalStateException("DELTA_BINARY_PACKED miniblock past the end of the page");
      }
      return data[at] & 0xFFL;
    }

    void skip(int bytes) {
      pos += bytes;
    }

    int unsignedVarInt() {
      long value = unsignedVarLong();
      if (value > Integer.MAX_VALUE) {
        throw new IllegalStateException("DELTA_BINARY_PACKED header value " + value);
      }
      return (int) value;
    }

    long unsignedVarLong() {
      long value = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        int b = unsignedByte();
        value |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new IllegalStateException("DELTA_BINARY_PACKED varint longer than 10 bytes");
    }

    long zigZagVarLong() {
      long raw = unsignedVarLong();
      return (raw >>> 1) ^ -(raw & 1);
    }
  }
}
