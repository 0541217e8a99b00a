package dev.prefetch.parquet.internal.page;

/**
 * Dictionary-encoded values (PLAIN_DICTIONARY, RLE_DICTIONARY): a bit width byte, then ids in the
 * RLE / bit-packed hybrid encoding. Ids are decoded in bulk into a scratch array, checked against
 * the dictionary size, and expanded; an RLE run of one id fills its span without a lookup each.
 */
final class DictionaryValues implements ValuesDecoder {

  private final Dictionary dictionary;
  private final RleBitPackedDecoder ids;
  private int[] scratch = new int[256];

  DictionaryValues(Dictionary dictionary, byte[] data, int offset, int end) {
    if (offset >= end) {
      if (offset == end) {
        // A page of nulls only may carry no ids at all.
        this.dictionary = dictionary;
        this.ids = new RleBitPackedDecoder(data, offset, end, 0);
        return;
      }
      throw new IllegalStateException("dictionary page data is empty");
    }
    int bitWidth = data[offset] & 0xFF;
    if (bitWidth > 32) {
      throw new IllegalStateException("dictionary id bit width " + bitWidth);
    }
    this.dictionary = dictionary;
    this.ids = new RleBitPackedDecoder(data, offset + 1, end, bitWidth);
  }

  private int[] ids(int count) {
    if (scratch.length < count) {
      scratch = new int[Math.max(count, scratch.length * 2)];
    }
    ids.readInts(scratch, 0, count);
    int last = dictionary.size - 1;
    // An id outside 0..last makes id or last - id negative: one OR over all ids, a loop without
    // a branch that the JIT vectorizes; the search for the culprit runs only on failure.
    int outOfRange = 0;
    for (int i = 0; i < count; i++) {
      outOfRange |= scratch[i] | (last - scratch[i]);
    }
    if (outOfRange < 0) {
      for (int i = 0; i < count; i++) {
        if (scratch[i] > last || scratch[i] < 0) {
          throw new IllegalStateException(
              "dictionary id "
                  + scratch[i]
                  + " out of range for a dictionary of "
                  + (last + 1)
                  + " entries");
        }
      }
    }
    return scratch;
  }

  @Override
  public void read(Object out, int offset, int count) {
    dictionary.expand(ids(count), out, offset, count);
  }

  @Override
  public void readBinary(BinaryBuilder out, int count) {
    out.appendEntries(dictionary.bytes, dictionary.offsets, ids(count), count);
  }

  @Override
  public void skip(int count) {
    ids.skip(count);
  }
}
