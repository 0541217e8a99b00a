package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Arrays;

/**
 * Integer RLE version 2: runs of up to 512 values in one of four sub-encodings, chosen by the top
 * two bits of a run's first byte.
 *
 * <ul>
 *   <li>SHORT_REPEAT: 3 to 10 copies of one value of 1 to 8 big-endian bytes (zigzag if signed).
 *   <li>DIRECT: 1 to 512 values bit-packed at one width of the 5-bit width table (zigzag if
 *       signed).
 *   <li>PATCHED_BASE: a base (sign and magnitude, 1 to 8 bytes) plus values bit-packed at a width
 *       that fits most of them, and a list of up to 31 patches that set the high bits of the
 *       others; a patch's gap says how far it lies from the previous one, a gap of 255 with a patch
 *       of 0 only carries the gap on.
 *   <li>DELTA: a first value (varint, signed or unsigned as the stream), a first delta (signed
 *       varint) and, unless the width is 0 (a fixed delta), the absolute values of the other deltas
 *       bit-packed, all of the first delta's sign.
 * </ul>
 *
 * A whole run's bytes are made contiguous in the window before it is decoded ({@link
 * StreamInput#ensure}), so the unpacking loops read one array without checks per value.
 *
 * <p>Refused as corrupt: a run whose bytes the stream does not hold, a patch wider than 64 bits
 * with its gap (orc-core refuses it too), and a DELTA run of one value with packed deltas (no
 * writer makes it; orc-core would decode two values from it and the C++ reader a negative count).
 */
final class RleV2IntegerDecoder extends IntegerDecoder {

  private static final int SHORT_REPEAT = 0;
  private static final int DIRECT = 1;
  private static final int PATCHED_BASE = 2;

  /** Bytes of a DELTA header and its two varints, at most. */
  private static final int DELTA_HEAD_BYTES = 2 + 2 * Varints.MAX_BYTES;

  /** The unpacked patch list of the current PATCHED_BASE run. */
  private final long[] patches = new long[31];

  RleV2IntegerDecoder(StreamInput input, boolean signed) {
    super(input, signed);
  }

  /** The bit width a 5-bit width code stands for (RLE v2's table; code 0 is 1 bit here). */
  static int decodeWidth(int code) {
    return switch (code) {
      case 24 -> 26;
      case 25 -> 28;
      case 26 -> 30;
      case 27 -> 32;
      case 28 -> 40;
      case 29 -> 48;
      case 30 -> 56;
      case 31 -> 64;
      default -> code + 1;
    };
  }

  /** The width a patch list's entries are packed at: gap width plus patch width, rounded up. */
  static int closestFixedBits(int bits) {
    if (bits <= 24) {
      return Math.max(1, bits);
    }
    if (bits <= 32) {
      return (bits + 1) & ~1;
    }
    return (bits + 7) & ~7;
  }

  @Override
  int maxValuesPerByte() {
    // a DELTA run of 512 values with a fixed delta: a 2-byte header and two 1-byte varints
    return 128;
  }

  @Override
  int peekRunLength() throws CorruptStreamException {
    int available = input.ensureUpTo(2);
    if (available == 0) {
      throw endOfStream();
    }
    byte[] a = input.array();
    int p = input.position();
    int first = a[p] & 0xFF;
    int type = first >>> 6;
    if (type == SHORT_REPEAT) {
      return (first & 7) + 3;
    }
    if (available < 2) {
      throw new CorruptStreamException(input.name(), "a run header is cut off by the stream's end");
    }
    int length = (((first & 1) << 8) | (a[p + 1] & 0xFF)) + 1;
    if (type == 3 && length == 1 && ((first >>> 1) & 0x1F) != 0) {
      throw new CorruptStreamException(
          input.name(),
          "a DELTA run of one value with packed deltas (header 0x" + hex(a, p, 2) + ")");
    }
    return length;
  }

  @Override
  void readRun(long[] out, int at, int length) throws CorruptStreamException {
    int first = input.array()[input.position()] & 0xFF;
    switch (first >>> 6) {
      case SHORT_REPEAT -> readShortRepeat(first, out, at, length);
      case DIRECT -> readDirect(first, out, at, length);
      case PATCHED_BASE -> readPatchedBase(first, out, at, length);
      default -> readDelta(first, out, at, length);
    }
  }

  private void readShortRepeat(int first, long[] out, int at, int length)
      throws CorruptStreamException {
    int width = ((first >>> 3) & 7) + 1;
    input.ensure(1 + width);
    byte[] a = input.array();
    int p = input.position() + 1;
    long value = 0;
    for (int i = 0; i < width; i++) {
      value = (value << 8) | (a[p + i] & 0xFF);
    }
    if (signed) {
      value = Varints.zigzag(value);
    }
    Arrays.fill(out, at, at + length, value);
    input.position(p + width);
  }

  private void readDirect(int first, long[] out, int at, int length) throws CorruptStreamException {
    int width = decodeWidth((first >>> 1) & 0x1F);
    int bytes = BitUnpacker.bytes(length, width);
    input.ensure(2 + bytes);
    int p = input.position() + 2;
    BitUnpacker.unpack(input.array(), p, width, out, at, length);
    if (signed) {
      for (int i = at; i < at + length; i++) {
        long v = out[i];
        out[i] = (v >>> 1) ^ -(v & 1);
      }
    }
    input.position(p + bytes);
  }

  private void readPatchedBase(int first, long[] out, int at, int length)
      throws CorruptStreamException {
    input.ensure(4);
    byte[] a = input.array();
    int p = input.position();
    int width = decodeWidth((first >>> 1) & 0x1F);
    int third = a[p + 2] & 0xFF;
    int fourth = a[p + 3] & 0xFF;
    int baseBytes = (third >>> 5) + 1;
    int patchWidth = decodeWidth(third & 0x1F);
    int gapWidth = (fourth >>> 5) + 1;
    int patchCount = fourth & 0x1F;
    if (patchWidth + gapWidth > 64) {
      throw new CorruptStreamException(
          input.name(),
          "a PATCHED_BASE run with patches of "
              + patchWidth
              + " bits and gaps of "
              + gapWidth
              + ", more than 64 bits together (header 0x"
              + hex(a, p, 4)
              + ")");
    }
    int entryWidth = closestFixedBits(patchWidth + gapWidth);
    int dataBytes = BitUnpacker.bytes(length, width);
    int patchBytes = BitUnpacker.bytes(patchCount, entryWidth);
    input.ensure(4 + baseBytes + dataBytes + patchBytes);
    a = input.array();
    p = input.position() + 4;
    long base = 0;
    for (int i = 0; i < baseBytes; i++) {
      base = (base << 8) | (a[p + i] & 0xFF);
    }
    long sign = 1L << (baseBytes * 8 - 1);
    if ((base & sign) != 0) {
      base = -(base & ~sign);
    }
    p += baseBytes;
    BitUnpacker.unpack(a, p, width, out, at, length);
    p += dataBytes;
    BitUnpacker.unpack(a, p, entryWidth, patches, 0, patchCount);
    input.position(p + patchBytes);

    // A patch lies its gap after the previous one (the first, after the run's start); an entry of
    // gap 255 and patch 0 only moves on. As orc-core applies them: patches past the run's end are
    // ignored, and a patch at the previous one's index (a gap of 0) ends the list.
    long patchMask = (1L << patchWidth) - 1;
    long index = 0;
    long previous = -1;
    for (int k = 0; k < patchCount; k++) {
      long entry = patches[k];
      long gap = entry >>> patchWidth;
      long patch = entry & patchMask;
      index += gap;
      if (gap == 255 && patch == 0) {
        continue;
      }
      if (index == previous || index >= length) {
        break;
      }
      out[at + (int) index] |= patch << width;
      previous = index;
    }
    for (int i = at; i < at + length; i++) {
      out[i] += base;
    }
  }

  private void readDelta(int first, long[] out, int at, int length) throws CorruptStreamException {
    int code = (first >>> 1) & 0x1F;
    int width = code == 0 ? 0 : decodeWidth(code);
    int available = input.ensureUpTo(DELTA_HEAD_BYTES);
    byte[] a = input.array();
    int p = input.position() + 2;
    int end = input.position() + available;
    // the two varints, read in place: both lie within the bytes ensured
    long firstValue = 0;
    int shift = 0;
    while (true) {
      if (p == end || shift > 63) {
        throw Varints.unterminated(input, p == end ? 0 : Varints.MAX_BYTES);
      }
      int b = a[p++];
      firstValue |= (long) (b & 0x7F) << shift;
      shift += 7;
      if (b >= 0) {
        break;
      }
    }
    if (signed) {
      firstValue = Varints.zigzag(firstValue);
    }
    long delta = 0;
    shift = 0;
    while (true) {
      if (p == end || shift > 63) {
        throw Varints.unterminated(input, p == end ? 0 : Varints.MAX_BYTES);
      }
      int b = a[p++];
      delta |= (long) (b & 0x7F) << shift;
      shift += 7;
      if (b >= 0) {
        break;
      }
    }
    delta = Varints.zigzag(delta);
    input.position(p);
    if (width == 0) {
      long v = firstValue;
      for (int i = at; i < at + length; i++) {
        out[i] = v;
        v += delta;
      }
      return;
    }
    int packed = length - 2;
    int bytes = BitUnpacker.bytes(packed, width);
    input.ensure(bytes);
    p = input.position();
    out[at] = firstValue;
    out[at + 1] = firstValue + delta;
    BitUnpacker.unpack(input.array(), p, width, out, at + 2, packed);
    input.position(p + bytes);
    long v = out[at + 1];
    if (delta < 0) {
      for (int i = at + 2; i < at + length; i++) {
        v -= out[i];
        out[i] = v;
      }
    } else {
      for (int i = at + 2; i < at + length; i++) {
        v += out[i];
        out[i] = v;
      }
    }
  }

  @Override
  void skipRun(int length) throws CorruptStreamException {
    byte[] a = input.array();
    int p = input.position();
    int first = a[p] & 0xFF;
    switch (first >>> 6) {
      case SHORT_REPEAT -> input.skip(1 + ((first >>> 3) & 7) + 1);
      case DIRECT ->
          input.skip(2 + (long) BitUnpacker.bytes(length, decodeWidth((first >>> 1) & 0x1F)));
      case PATCHED_BASE -> {
        input.ensure(4);
        a = input.array();
        p = input.position();
        int third = a[p + 2] & 0xFF;
        int fourth = a[p + 3] & 0xFF;
        int patchWidth = decodeWidth(third & 0x1F);
        int gapWidth = (fourth >>> 5) + 1;
        if (patchWidth + gapWidth > 64) {
          // decoding it says why it is corrupt
          readPatchedBase(first, new long[length], 0, length);
        }
        long bytes =
            4L
                + (third >>> 5)
                + 1
                + BitUnpacker.bytes(length, decodeWidth((first >>> 1) & 0x1F))
                + BitUnpacker.bytes(fourth & 0x1F, closestFixedBits(patchWidth + gapWidth));
        input.skip(bytes);
      }
      default -> {
        int code = (first >>> 1) & 0x1F;
        input.skip(2);
        Varints.skip(input);
        Varints.skip(input);
        if (code != 0) {
          input.skip(BitUnpacker.bytes(length - 2, decodeWidth(code)));
        }
      }
    }
  }

  private static String hex(byte[] a, int p, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(String.format("%02x", a[p + i] & 0xFF));
    }
    return s.toString();
  }
}
