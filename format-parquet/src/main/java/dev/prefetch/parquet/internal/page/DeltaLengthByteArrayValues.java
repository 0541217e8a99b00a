package dev.prefetch.parquet.internal.page;

/**
 * DELTA_LENGTH_BYTE_ARRAY values: every value's length, DELTA_BINARY_PACKED, then all the values'
 * bytes back to back. Each length is checked against the bytes left before a value is copied.
 */
final class DeltaLengthByteArrayValues implements ValuesDecoder {

  private final byte[] data;
  private final int end;
  private final DeltaBinaryPackedValues lengths;
  private int pos;
  private long[] scratch = new long[64];

  DeltaLengthByteArrayValues(byte[] data, int offset, int end, int maxValues) {
    this.data = data;
    this.end = end;
    this.lengths = new DeltaBinaryPackedValues(data, offset, end, maxValues);
    this.pos = lengths.end();
    if (pos > end) {
      throw new IllegalStateException("DELTA_LENGTH_BYTE_ARRAY lengths past the end of the page");
    }
  }

  /** The position just past the values read so far. */
  int position() {
    return pos;
  }

  /** Values not read yet. */
  int remaining() {
    return lengths.remaining();
  }

  private long[] lengths(int count) {
    if (scratch.length < count) {
      scratch = new long[Math.max(count, scratch.length * 2)];
    }
    lengths.read(scratch, 0, count);
    return scratch;
  }

  /** The length of the next value, checked against the page; the caller then takes its bytes. */
  int nextLength() {
    long length = lengths(1)[0];
    check(length);
    return (int) length;
  }

  /** Moves past {@code length} bytes of a value taken with {@link #nextLength}. */
  void advance(int length) {
    pos += length;
  }

  byte[] data() {
    return data;
  }

  private void check(long length) {
    if (length < 0 || length > end - pos) {
      throw new IllegalStateException(
          "DELTA_LENGTH_BYTE_ARRAY value of " + length + " bytes with " + (end - pos) + " left");
    }
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    long[] length = lengths(count);
    for (int i = 0; i < count; i++) {
      check(length[i]);
      int n = (int) length[i];
      out.append(data, pos, n);
      pos += n;
    }
  }

  @Override
  public void skip(int count) {
    long[] length = lengths(count);
    for (int i = 0; i < count; i++) {
      check(length[i]);
      pos += (int) length[i];
    }
  }
}
