package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.StreamInput;

/**
 * Integer RLE version 1 (the {@code DIRECT} and {@code DICTIONARY} encodings of Hive 0.11 files): a
 * header byte of 0 to 127 starts a run of {@code header + 3} values that differ by a fixed delta (a
 * signed byte) from a base (a varint); a header of -128 to -1 starts {@code -header} literal
 * varints. Varints are zigzag-encoded when the stream is signed.
 */
final class RleV1IntegerDecoder extends IntegerDecoder {

  private static final int MIN_REPEAT = 3;

  RleV1IntegerDecoder(StreamInput input, boolean signed) {
    super(input, signed);
  }

  @Override
  int maxValuesPerByte() {
    // a run of 130 values: a header, a delta and a 1-byte base
    return 44;
  }

  @Override
  int peekRunLength() throws CorruptStreamException {
    if (input.ensureUpTo(1) == 0) {
      throw endOfStream();
    }
    int header = input.array()[input.position()];
    return header >= 0 ? header + MIN_REPEAT : -header;
  }

  @Override
  void readRun(long[] out, int at, int length) throws CorruptStreamException {
    int header = input.array()[input.position()];
    input.position(input.position() + 1);
    if (header >= 0) {
      int delta = (byte) input.readUnsignedByte();
      long base = signed ? Varints.readSigned(input) : Varints.readUnsigned(input);
      long v = base;
      for (int i = at; i < at + length; i++) {
        out[i] = v;
        v += delta;
      }
      return;
    }
    for (int i = at; i < at + length; i++) {
      out[i] = signed ? Varints.readSigned(input) : Varints.readUnsigned(input);
    }
  }

  @Override
  void skipRun(int length) throws CorruptStreamException {
    int header = input.array()[input.position()];
    input.position(input.position() + 1);
    if (header >= 0) {
      input.skip(1);
      Varints.skip(input);
      return;
    }
    for (int i = 0; i < length; i++) {
      Varints.skip(input);
    }
  }
}
