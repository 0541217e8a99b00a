package dev.prefetch.parquet.internal.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary ids, booleans in data
 * page v2), decoded run by run.
 *
 * <p>Callers either take whole runs ({@link #nextRun}: an RLE run is one value repeated, which is
 * how definition levels become null-mask blocks without touching each level) or values into an
 * {@code int[]} ({@link #readInts}). Every length read from the data is checked against the bytes
 * that remain, so corrupt input ends in an {@link IllegalStateException}, never a loop or a huge
 * allocation.
 */
final class RleBitPackedDecoder implements LevelRuns {

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] data;
  private final int end;
  private final int bitWidth;
  private final int valueBytes;
  private int pos;

  /**
   * Current run: values left in it, whether it repeats {@code rleValue}; for a bit-packed run,
   * where its first value's byte is and how many of its values were consumed ({@code packedPos}).
   */
  private int runLeft;

  private boolean rle;
  private int rleValue;
  private int runStart;
  private int packedPos;

  /**
   * The current bit-packed run's values, unpacked only when read one by one ({@link #packedValue},
   * levels); {@link #readInts} unpacks straight into the caller's array instead.
   */
  private int[] packed = new int[64];

  private boolean unpacked;

  RleBitPackedDecoder(byte[] data, int offset, int end, int bitWidth) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalStateException("invalid RLE bit width " + bitWidth);
    }
    if (offset < 0 || end > data.length || offset > end) {
      throw new IllegalStateException(
          "RLE data [" + offset + ", " + end + ") outside the page of " + data.length + " bytes");
    }
    this.data = data;
    this.pos = offset;
    this.end = end;
    this.bitWidth = bitWidth;
    this.valueBytes = (bitWidth + 7) / 8;
  }

  /** Whether the current run (after {@link #nextRun}) repeats one value. */
  @Override
  public boolean isRle() {
    return rle;
  }

  /** The repeated value of the current RLE run. */
  @Override
  public int rleValue() {
    return rleValue;
  }

  /**
   * Makes a run current and returns how many of its values are left (at least 1).
   *
   * @throws IllegalStateException when the data ends before a run
   */
  @Override
  public int nextRun() {
    if (runLeft == 0) {
      readHeader();
    }
    return runLeft;
  }

  /** The value at position {@code i} of the current bit-packed run's remaining values. */
  @Override
  public int packedValue(int i) {
    if (!unpacked) {
      int count = packedPos + runLeft;
      if (packed.length < count) {
        packed = new int[Math.max(count, packed.length * 2)];
      }
      unpack(packed, 0, 0, count);
      unpacked = true;
    }
    return packed[packedPos + i];
  }

  /** Consumes {@code count} values of the current run. */
  @Override
  public void consume(int count) {
    runLeft -= count;
    if (!rle) {
      packedPos += count;
    }
  }

  int readInt() {
    nextRun();
    int value = rle ? rleValue : packedValue(0);
    consume(1);
    return value;
  }

  void readInts(int[] out, int offset, int count) {
    while (count > 0) {
      int n = Math.min(nextRun(), count);
      if (rle) {
        java.util.Arrays.fill(out, offset, offset + n, rleValue);
      } else if (unpacked) {
        System.arraycopy(packed, packedPos, out, offset, n);
      } else {
        unpack(out, offset, packedPos, n);
      }
      consume(n);
      offset += n;
      count -= n;
    }
  }

  void skip(int count) {
    while (count > 0) {
      int n = Math.min(nextRun(), count);
      consume(n);
      count -= n;
    }
  }

  private void readHeader() {
    int header = readUnsignedVarInt();
    if ((header & 1) == 0) {
      int count = header >>> 1;
      if (count == 0) {
        throw new IllegalStateException("RLE run of length 0");
      }
      if (end - pos < valueBytes) {
        throw new IllegalStateException("RLE run value past the end of the data");
      }
      int value = 0;
      for (int i = 0; i < valueBytes; i++) {
        value |= (data[pos + i] & 0xFF) << (8 * i);
      }
      pos += valueBytes;
      rle = true;
      rleValue = value;
      runLeft = count;
    } else {
      int groups = header >>> 1;
      if (groups == 0 || groups > Integer.MAX_VALUE / 8) {
        throw new IllegalStateException("bit-packed run of " + groups + " groups");
      }
      if (bitWidth == 0) {
        // Zero-width values are all 0: a run of zeros, with nothing to unpack or allocate.
        rle = true;
        rleValue = 0;
        runLeft = groups * 8;
        return;
      }
      if ((long) groups * bitWidth > end - pos) {
        // Writers pad the last run to whole groups; anything shorter is corrupt.
        throw new IllegalStateException(
            "bit-packed run of "
                + groups
                + " groups x "
                + bitWidth
                + " bits past the end of the data ("
                + (end - pos)
                + " bytes left)");
      }
      runStart = pos;
      pos += groups * bitWidth;
      rle = false;
      unpacked = false;
      packedPos = 0;
      runLeft = groups * 8;
    }
  }

  /**
   * Unpacks values {@code first..first+count-1} of the current bit-packed run into {@code
   * out[offset..]}, each {@code bitWidth} bits, least significant bit first. A value of at most 32
   * bits always lies within the 8 bytes from its first byte, so each is one unaligned little-endian
   * load, a shift and a mask, with no branch on the data; up to 16 bits, a whole group of 8 values
   * comes from one or two loads (dictionary ids and levels are mostly that narrow). Only values
   * within 8 bytes of the array's end take the byte-wise path. The run's bytes were checked to lie
   * in the data when its header was read.
   */
  private void unpack(int[] out, int offset, int first, int count) {
    int width = bitWidth;
    long mask = (1L << width) - 1;
    int p = runStart;
    int last = first + count;
    // values whose 8-byte load stays inside the array: i * width / 8 + 8 <= data.length - p
    long loadable = ((long) (data.length - p - 8) * 8) / width + 1;
    int fast = data.length - p < 8 ? first : (int) Math.max(first, Math.min(last, loadable));
    int shift = offset - first;
    int i = first;
    if (width <= 16) {
      // Whole groups of 8 values (a group is width bytes): one or two loads per group rather than
      // one per value. Value k lies in the group's first 8 bytes (lo) when its bits end by bit 64,
      // else, for widths of 9 to 16, wholly in the group's last 8 bytes (hi).
      for (; i < fast && (i & 7) != 0; i++) {
        long bit = (long) i * width;
        long word = (long) LONG_LE.get(data, p + (int) (bit >>> 3));
        out[shift + i] = (int) ((word >>> (bit & 7)) & mask);
      }
      int hiShift = Math.max(0, 8 * width - 64);
      for (; i + 8 <= fast; i += 8) {
        int group = p + (i >>> 3) * width;
        long lo = (long) LONG_LE.get(data, group);
        long hi = width > 8 ? (long) LONG_LE.get(data, group + width - 8) : lo;
        int o = shift + i;
        for (int k = 0; k < 8; k++) {
          int bit = k * width;
          long word = bit + width <= 64 ? lo >>> bit : hi >>> (bit - hiShift);
          out[o + k] = (int) (word & mask);
        }
      }
    }
    for (; i < fast; i++) {
      long bit = (long) i * width;
      long word = (long) LONG_LE.get(data, p + (int) (bit >>> 3));
      out[shift + i] = (int) ((word >>> (bit & 7)) & mask);
    }
    for (; i < last; i++) {
      long bit = (long) i * width;
      int at = p + (int) (bit >>> 3);
      long word = 0;
      for (int b = 0; b < 8 && at + b < data.length; b++) {
        word |= (data[at + b] & 0xFFL) << (8 * b);
      }
      out[shift + i] = (int) ((word >>> (bit & 7)) & mask);
    }
  }

  private int readUnsignedVarInt() {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= end) {
        throw new IllegalStateException("RLE data ended inside a run header");
      }
      int b = data[pos++] & 0xFF;
      value |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (value < 0) {
          throw new IllegalStateException("RLE run header out of range");
        }
        return value;
      }
    }
    throw new IllegalStateException("RLE run header varint longer than 5 bytes");
  }
}
