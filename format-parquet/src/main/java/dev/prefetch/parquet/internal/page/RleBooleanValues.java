package dev.prefetch.parquet.internal.page;

/**
 * RLE booleans (data page v2): a 4-byte little-endian length, then the values in the RLE /
 * bit-packed hybrid encoding of bit width 1.
 */
final class RleBooleanValues implements ValuesDecoder {

  private final RleBitPackedDecoder bits;
  private int[] scratch = new int[64];

  RleBooleanValues(byte[] data, int offset, int end) {
    if (end - offset < 4) {
      throw new IllegalStateException("RLE booleans without their length");
    }
    int length =
        (data[offset] & 0xFF)
            | (data[offset + 1] & 0xFF) << 8
            | (data[offset + 2] & 0xFF) << 16
            | (data[offset + 3] & 0xFF) << 24;
    if (length < 0 || length > end - offset - 4) {
      throw new IllegalStateException(
          "RLE booleans claim " + length + " bytes, the page has " + (end - offset - 4));
    }
    this.bits = new RleBitPackedDecoder(data, offset + 4, offset + 4 + length, 1);
  }

  @Override
  public void readBooleans(boolean[] out, int offset, int count) {
    if (scratch.length < count) {
      scratch = new int[Math.max(count, scratch.length * 2)];
    }
    bits.readInts(scratch, 0, count);
    for (int i = 0; i < count; i++) {
      out[offset + i] = scratch[i] != 0;
    }
  }

  @Override
  public void skip(int count) {
    bits.skip(count);
  }
}
