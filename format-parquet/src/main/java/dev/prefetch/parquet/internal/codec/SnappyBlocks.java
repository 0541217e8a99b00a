package dev.prefetch.parquet.internal.codec;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decompresses one raw snappy block (a Parquet SNAPPY page is one) from a heap array into a heap
 * array, in Java.
 *
 * <p>Why not snappy-java's native {@code rawUncompress}: the snappy it bundles (1.1.10)
 * decompresses integer pages at about half the speed of older snappy builds on some CPUs (on an AMD
 * EPYC with AVX-512, 1.1.10 took 86 ms of CPU for the 113 MB of a lineitem file's integer pages
 * where snappy 1.1.8 took 45 ms), and the decompression was most of a scan's CPU there. This loop
 * runs the same pages in about 55 ms on that machine and is no slower than the native one elsewhere
 * we measured.
 *
 * <p>The format: a varint of the uncompressed length, then tags. A tag's low two bits say what it
 * is: 0 a literal (its length in the upper six bits, or in 1 to 4 bytes after the tag when they say
 * 60 to 63), 1 a copy of 4 to 11 bytes at an offset of 11 bits, 2 a copy of 1 to 64 bytes at a
 * 16-bit offset, 3 the same at a 32-bit offset. A copy's source may overlap its destination (an
 * offset below its length repeats a pattern).
 *
 * <p>Speed: while both arrays have slack left ({@link #IN_SLACK} and {@link #OUT_SLACK} bytes), a
 * tag is decoded from one 8-byte load and its bytes are moved 8 at a time, writing past the end of
 * short literals and copies into the slack (the next tags overwrite it); nothing is written at or
 * past {@code outOffset + length}, and nothing below the current output position is changed. A
 * copy's length and offset come from a table by tag, which avoids a branch between the two kinds of
 * short copies; the input position advances by arithmetic on the tag alone, so the next tag's load
 * does not wait for the table. The last bytes of either side are decoded with every length checked.
 *
 * <p>Every length and offset read from the block is checked before it is used: a block that is
 * truncated, points before the start of its output or overruns its declared length fails with an
 * {@link IOException}; nothing is allocated here.
 */
public final class SnappyBlocks {

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Input bytes the fast loop needs ahead of a tag: the tag's 8-byte load and a literal of 64. */
  private static final int IN_SLACK = 5 + 64;

  /** Output bytes the fast loop needs ahead: a copy of 64 bytes moved in words, and a pattern. */
  private static final int OUT_SLACK = 64 + 16;

  /** Most bytes of the uncompressed-length varint. */
  private static final int MAX_LENGTH_BYTES = 5;

  /**
   * Per copy tag: its length (bits 0-6), the bytes of offset after the tag (bits 8-10) and the
   * offset's high bits that the tag itself holds (bits 11 and up, copies of kind 1).
   */
  private static final int[] COPY_TAGS = copyTags();

  /** The masks of 0 to 4 bytes. */
  private static final long[] BYTE_MASKS = {0, 0xFFL, 0xFFFFL, 0xFFFFFFL, 0xFFFFFFFFL};

  private SnappyBlocks() {}

  private static int[] copyTags() {
    int[] table = new int[256];
    for (int tag = 0; tag < 256; tag++) {
      int length = (tag >>> 2) + 1;
      int extra = 0;
      int high = 0;
      switch (tag & 3) {
        case 1 -> {
          length = 4 + ((tag >>> 2) & 7);
          extra = 1;
          high = (tag >>> 5) << 8;
        }
        case 2 -> extra = 2;
        case 3 -> extra = 4;
        default -> length = 0; // a literal: not read from this table
      }
      table[tag] = length | extra << 8 | high << 11;
    }
    return table;
  }

  /**
   * The uncompressed length that the block at {@code in[offset..offset+length)} declares.
   *
   * @throws IOException when its varint is cut short, longer than 5 bytes or above {@code
   *     Integer.MAX_VALUE}
   */
  public static int uncompressedLength(byte[] in, int offset, int length) throws IOException {
    checkRange(in.length, offset, length, "input");
    return (int) readLength(in, offset, offset + length);
  }

  /**
   * Decompresses the block at {@code in[offset..offset+length)} into {@code out[outOffset..)}; its
   * declared uncompressed length must be {@code outLength}.
   *
   * @throws IOException when the block declares another length, or is corrupt (see the class)
   */
  public static void decompress(
      byte[] in, int offset, int length, byte[] out, int outOffset, int outLength)
      throws IOException {
    checkRange(in.length, offset, length, "input");
    checkRange(out.length, outOffset, outLength, "output");
    int inEnd = offset + length;
    long header = readLength(in, offset, inEnd);
    int declared = (int) header;
    if (declared != outLength) {
      throw new IOException(
          "SNAPPY block declares " + declared + " uncompressed bytes, expected " + outLength);
    }
    int ip = offset + (int) (header >>> 32);
    int outEnd = outOffset + outLength;
    long at = fast(in, ip, inEnd, out, outOffset, outOffset, outEnd);
    int op = tail(in, (int) (at >>> 32), inEnd, out, outOffset, (int) at, outEnd);
    if (op != outEnd) {
      throw new IOException(
          "SNAPPY block ends after " + (op - outOffset) + " of its " + outLength + " bytes");
    }
  }

  /**
   * The declared length (low 32 bits) and the bytes of its varint (high 32 bits).
   *
   * @throws IOException for a varint cut short, too long, or above {@code Integer.MAX_VALUE}
   */
  private static long readLength(byte[] in, int ip, int inEnd) throws IOException {
    long value = 0;
    for (int i = 0; i < MAX_LENGTH_BYTES; i++) {
      if (ip + i >= inEnd) {
        throw new IOException("SNAPPY block ends inside its length");
      }
      int b = in[ip + i] & 0xFF;
      value |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (value > Integer.MAX_VALUE) {
          throw new IOException("SNAPPY block declares " + value + " uncompressed bytes");
        }
        return (long) (i + 1) << 32 | value;
      }
    }
    throw new IOException("SNAPPY block length longer than " + MAX_LENGTH_BYTES + " bytes");
  }

  private static void checkRange(int arrayLength, int offset, int length, String what) {
    if (offset < 0 || length < 0 || offset > arrayLength - length) {
      throw new IllegalArgumentException(
          what
              + " range ["
              + offset
              + ", "
              + offset
              + " + "
              + length
              + ") outside an array of "
              + arrayLength);
    }
  }

  /**
   * Decodes tags while both sides have their slack; returns where it stopped, the input position in
   * the high 32 bits and the output position in the low 32.
   */
  private static long fast(
      byte[] in, int ip, int inEnd, byte[] out, int outStart, int op, int outEnd)
      throws IOException {
    int inFast = inEnd - IN_SLACK;
    int outFast = outEnd - OUT_SLACK;
    while (ip <= inFast && op <= outFast) {
      long word = (long) LONG.get(in, ip);
      int tag = (int) word & 0xFF;
      int kind = tag & 3;
      if (kind == 0) {
        int n = (tag >>> 2) + 1;
        if (n <= 60) {
          // at most 60 bytes, within both slacks: moved in words, past its end
          LONG.set(out, op, (long) LONG.get(in, ip + 1));
          LONG.set(out, op + 8, (long) LONG.get(in, ip + 9));
          if (n > 16) {
            for (int i = 16; i < n; i += 8) {
              LONG.set(out, op + i, (long) LONG.get(in, ip + 1 + i));
            }
          }
          ip += n + 1;
          op += n;
          continue;
        }
        int extra = n - 60;
        long literal = ((word >>> 8) & BYTE_MASKS[extra]) + 1;
        ip += 1 + extra;
        if (literal > inEnd - ip || literal > outEnd - op) {
          throw literalPastEnd(literal, inEnd - ip, outEnd - op);
        }
        System.arraycopy(in, ip, out, op, (int) literal);
        ip += (int) literal;
        op += (int) literal;
        continue;
      }
      // The tag and its 1, 2 or 4 offset bytes, for kinds 1, 2, 3: the nibbles of 0x5320.
      ip += (0x5320 >>> (kind << 2)) & 0xF;
      int entry = COPY_TAGS[tag];
      int n = entry & 0x7F;
      int offset = (entry >>> 11) | (int) ((word >>> 8) & BYTE_MASKS[(entry >>> 8) & 7]);
      if (offset <= 0 || offset > op - outStart) {
        throw badOffset(offset, op - outStart);
      }
      int src = op - offset;
      if (offset < 8) {
        // A pattern shorter than a word: repeat it until it spans one (each step doubles it,
        // writing past the copy's end into the slack), then move words a whole pattern behind.
        int dst = op;
        while (dst - src < 8) {
          LONG.set(out, dst, (long) LONG.get(out, src));
          dst += dst - src;
        }
        int done = dst - op;
        for (int i = done; i < n; i += 8) {
          LONG.set(out, op + i, (long) LONG.get(out, src + (i - done)));
        }
        op += n;
        continue;
      }
      // At least a word behind: each word read was written before (by an earlier tag or the
      // word before it), so the moves may overlap.
      LONG.set(out, op, (long) LONG.get(out, src));
      LONG.set(out, op + 8, (long) LONG.get(out, src + 8));
      if (n > 16) {
        for (int i = 16; i < n; i += 8) {
          LONG.set(out, op + i, (long) LONG.get(out, src + i));
        }
      }
      op += n;
    }
    return (long) ip << 32 | (op & 0xFFFFFFFFL);
  }

  /** The tags after the fast loop, every length checked; returns the output position. */
  private static int tail(
      byte[] in, int ip, int inEnd, byte[] out, int outStart, int op, int outEnd)
      throws IOException {
    while (ip < inEnd) {
      int tag = in[ip++] & 0xFF;
      int kind = tag & 3;
      int n = (tag >>> 2) + 1;
      int extra = kind == 0 ? Math.max(0, n - 60) : kind == 3 ? 4 : kind;
      if (inEnd - ip < extra) {
        throw new IOException("SNAPPY block ends inside a tag");
      }
      long value = 0;
      for (int i = 0; i < extra; i++) {
        value |= (in[ip + i] & 0xFFL) << (8 * i);
      }
      ip += extra;
      if (kind == 0) {
        long literal = extra > 0 ? value + 1 : n;
        if (literal > inEnd - ip || literal > outEnd - op) {
          throw literalPastEnd(literal, inEnd - ip, outEnd - op);
        }
        System.arraycopy(in, ip, out, op, (int) literal);
        ip += (int) literal;
        op += (int) literal;
        continue;
      }
      long offset = value;
      if (kind == 1) {
        n = 4 + ((tag >>> 2) & 7);
        offset |= (tag >>> 5) << 8;
      }
      if (offset <= 0 || offset > op - outStart) {
        throw badOffset(offset, op - outStart);
      }
      if (n > outEnd - op) {
        throw new IOException(
            "SNAPPY copy of " + n + " bytes with " + (outEnd - op) + " left of the output");
      }
      int src = op - (int) offset;
      for (int i = 0; i < n; i++) {
        out[op + i] = out[src + i];
      }
      op += n;
    }
    return op;
  }

  private static IOException literalPastEnd(long literal, int inLeft, int outLeft) {
    return new IOException(
        "SNAPPY literal of "
            + literal
            + " bytes with "
            + inLeft
            + " left in the block and "
            + outLeft
            + " of the output");
  }

  private static IOException badOffset(long offset, int written) {
    return new IOException(
        "SNAPPY copy at offset " + offset + " after " + written + " bytes of output");
  }
}
