package dev.prefetch.parquet.internal.page;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;

/**
 * Dictionary-encoded values (PLAIN_DICTIONARY, RLE_DICTIONARY): a bit width byte, then ids in the
 * RLE / bit-packed hybrid encoding. Ids are decoded in bulk into a scratch array, checked against
 * the dictionary size, and expanded; an RLE run of one id fills its span without a lookup each.
 */
final class DictionaryValues implements ValuesDecoder {

  private final Dictionary dictionary;
  private final RleBitPackedDecoder ids;

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
    int[] scratch = dictionary.idScratch(count);
    readIds(scratch, 0, count);
    return scratch;
  }

  @Override
  public void readIds(int[] out, int offset, int count) {
    ids.readInts(out, offset, count);
    int last = dictionary.size - 1;
    // An id outside 0..last makes id or last - id negative: one OR over all ids, a loop without
    // a branch that the JIT vectorizes; the search for the culprit runs only on failure.
    int outOfRange = 0;
    for (int i = offset; i < offset + count; i++) {
      outOfRange |= out[i] | (last - out[i]);
    }
    if (outOfRange < 0) {
      for (int i = offset; i < offset + count; i++) {
        if (out[i] > last || out[i] < 0) {
          throw new IllegalStateException(
              "dictionary id "
                  + out[i]
                  + " out of range for a dictionary of "
                  + (last + 1)
                  + " entries");
        }
      }
    }
  }

  @Override
  public BinaryVector dictionary(DataType type) {
    return dictionary.vector(type);
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
