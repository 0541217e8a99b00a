package dev.prefetch.parquet.internal.page;

/**
 * RLE booleans (data page v2): a 4-byte little-endian length, then the values in the RLE /
 * bit-packed hybrid encoding of bit width 1.
 */
final class RleBooleanValues implements ValuesDecoder {

  private final RleBitPackedDecoder bits;
  private int[] scratch = new int[64];

  RleBooleanValues(byte[] data, int offset, int end) {
    int length = LittleEndian.length(data, offset, end, "RLE booleans", null);
    this.bits = new RleBitPackedDecoder(data, offset + 4, offset + 4 + length, 1);
  }

  @Override
  public void read(Object values, int offset, int count) {
    if (!(values instanceof boolean[] out)) {
      throw ValuesDecoder.unsupported(this, values.getClass().getSimpleName());
    }
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
