package dev.prefetch.parquet.internal.page;

import java.util.Arrays;

/**
 * DELTA_BYTE_ARRAY values (incremental encoding): every value's prefix length shared with the
 * previous value, DELTA_BINARY_PACKED, then the suffixes as DELTA_LENGTH_BYTE_ARRAY. A value is the
 * previous value's first {@code prefix} bytes followed by its suffix, rebuilt in a scratch array
 * (the first value of a page has no previous: its prefix must be 0).
 */
final class DeltaByteArrayValues implements ValuesDecoder {

  private final DeltaBinaryPackedValues prefixes;
  private final DeltaLengthByteArrayValues suffixes;
  private byte[] previous = new byte[64];
  private int previousLength;
  private long[] scratch = new long[64];

  DeltaByteArrayValues(byte[] data, int offset, int end, int maxValues) {
    this.prefixes = new DeltaBinaryPackedValues(data, offset, end, maxValues);
    if (prefixes.end() > end) {
      throw new IllegalStateException("DELTA_BYTE_ARRAY prefix lengths past the end of the page");
    }
    this.suffixes = new DeltaLengthByteArrayValues(data, prefixes.end(), end, maxValues);
  }

  /** Rebuilds the next {@code count} values into {@code previous}, handing each to {@code out}. */
  private void next(int count, BinaryBuilder out) {
    if (scratch.length < count) {
      scratch = new long[Math.max(count, scratch.length * 2)];
    }
    long[] prefix = scratch;
    prefixes.read(prefix, 0, count);
    byte[] data = suffixes.data();
    for (int i = 0; i < count; i++) {
      if (prefix[i] < 0 || prefix[i] > previousLength) {
        throw new IllegalStateException(
            "DELTA_BYTE_ARRAY prefix of "
                + prefix[i]
                + " bytes after a value of "
                + previousLength);
      }
      int shared = (int) prefix[i];
      int suffix = suffixes.nextLength();
      int length = shared + suffix;
      if (length > previous.length) {
        previous = Arrays.copyOf(previous, Math.max(length, 2 * previous.length));
      }
      System.arraycopy(data, suffixes.position(), previous, shared, suffix);
      suffixes.advance(suffix);
      previousLength = length;
      if (out != null) {
        out.append(previous, 0, length);
      }
    }
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    next(count, out);
  }

  @Override
  public void skip(int count) {
    next(count, null); // a later value may share a prefix with a skipped one
  }
}
