package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Objects;

/**
 * A boolean stream: bits packed most significant first into bytes, the bytes in byte RLE. The
 * PRESENT stream of every column (1 = a value, 0 = null) and the DATA of boolean columns.
 *
 * <p>Bytes are decoded a block at a time into a scratch array and expanded 8 values per byte in an
 * unrolled loop; a byte partly consumed by one call is finished by the next.
 *
 * <p>Confined to one thread.
 */
public final class BooleanDecoder {

  /** Bytes decoded per step of a bulk call: 8 Ki values. */
  private static final int SCRATCH_BYTES = 1024;

  private final ByteRleDecoder bytes;
  private final byte[] scratch = new byte[SCRATCH_BYTES];

  /** The byte being consumed, and how many of its bits (from the top) are consumed. */
  private int current;

  private int consumed = 8;

  public BooleanDecoder(StreamInput input) {
    this.bytes = new ByteRleDecoder(input);
  }

  /** The stream this decoder reads. */
  public StreamInput input() {
    return bytes.input();
  }

  /**
   * Decodes the next {@code count} booleans into {@code out[offset, offset + count)}.
   *
   * @throws CorruptStreamException when the stream holds fewer
   */
  public void decode(boolean[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int o = offset;
    int left = count;
    while (left > 0 && consumed < 8) {
      out[o++] = ((current >>> (7 - consumed++)) & 1) != 0;
      left--;
    }
    while (left >= 8) {
      int n = Math.min(left >>> 3, SCRATCH_BYTES);
      bytes.decode(scratch, 0, n);
      byte[] s = scratch;
      for (int b = 0; b < n; b++) {
        int v = s[b];
        int at = o + (b << 3);
        out[at] = (v & 0x80) != 0;
        out[at + 1] = (v & 0x40) != 0;
        out[at + 2] = (v & 0x20) != 0;
        out[at + 3] = (v & 0x10) != 0;
        out[at + 4] = (v & 0x08) != 0;
        out[at + 5] = (v & 0x04) != 0;
        out[at + 6] = (v & 0x02) != 0;
        out[at + 7] = (v & 0x01) != 0;
      }
      o += n << 3;
      left -= n << 3;
    }
    if (left > 0) {
      current = bytes.next();
      consumed = 0;
      while (left > 0) {
        out[o++] = ((current >>> (7 - consumed++)) & 1) != 0;
        left--;
      }
    }
  }

  /**
   * Decodes the next {@code count} bits of a PRESENT stream as a null mask: {@code nulls[offset +
   * i]} is true where the bit is 0 (no value).
   *
   * @return how many of them are not null (the values the column's other streams hold for them)
   * @throws CorruptStreamException when the stream holds fewer
   */
  public int decodeNulls(boolean[] nulls, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, nulls.length);
    int o = offset;
    int left = count;
    int present = 0;
    while (left > 0 && consumed < 8) {
      int bit = (current >>> (7 - consumed++)) & 1;
      nulls[o++] = bit == 0;
      present += bit;
      left--;
    }
    while (left >= 8) {
      int n = Math.min(left >>> 3, SCRATCH_BYTES);
      bytes.decode(scratch, 0, n);
      byte[] s = scratch;
      for (int b = 0; b < n; b++) {
        int v = s[b];
        int at = o + (b << 3);
        nulls[at] = (v & 0x80) == 0;
        nulls[at + 1] = (v & 0x40) == 0;
        nulls[at + 2] = (v & 0x20) == 0;
        nulls[at + 3] = (v & 0x10) == 0;
        nulls[at + 4] = (v & 0x08) == 0;
        nulls[at + 5] = (v & 0x04) == 0;
        nulls[at + 6] = (v & 0x02) == 0;
        nulls[at + 7] = (v & 0x01) == 0;
        present += Integer.bitCount(v & 0xFF);
      }
      o += n << 3;
      left -= n << 3;
    }
    if (left > 0) {
      current = bytes.next();
      consumed = 0;
      while (left > 0) {
        int bit = (current >>> (7 - consumed++)) & 1;
        nulls[o++] = bit == 0;
        present += bit;
        left--;
      }
    }
    return present;
  }

  /** Passes over the next {@code count} booleans. */
  public void skip(long count) throws CorruptStreamException {
    skip(count, false);
  }

  /**
   * Passes over the next {@code count} bits of a PRESENT stream.
   *
   * @return how many of them are set: the values the column's other streams hold for those rows
   */
  public long skipCounting(long count) throws CorruptStreamException {
    return skip(count, true);
  }

  private long skip(long count, boolean counting) throws CorruptStreamException {
    if (count < 0) {
      throw new IllegalArgumentException("negative skip " + count);
    }
    long set = 0;
    long left = count;
    while (left > 0 && consumed < 8) {
      set += (current >>> (7 - consumed++)) & 1;
      left--;
    }
    if (left >= 8) {
      long whole = left >>> 3;
      if (counting) {
        set += bytes.skipCountingBits(whole);
      } else {
        bytes.skip(whole);
      }
      left -= whole << 3;
    }
    if (left > 0) {
      current = bytes.next();
      consumed = 0;
      while (left > 0) {
        set += (current >>> (7 - consumed++)) & 1;
        left--;
      }
    }
    return set;
  }

  /**
   * Seeks to a row index position: the byte stream's position (stream and run), then the bits of
   * the byte there that are consumed (0 to 8).
   */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    bytes.seek(positions);
    long bit = positions.next(input().name());
    if (bit > 8) {
      throw new CorruptStreamException(
          input().name(), "row index position of bit " + bit + " within a byte");
    }
    consumed = 8;
    if (bit != 0) {
      current = bytes.next();
      consumed = (int) bit;
    }
  }
}
