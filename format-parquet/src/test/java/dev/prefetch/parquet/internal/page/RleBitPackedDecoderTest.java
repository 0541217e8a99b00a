package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

/** Our hybrid decoder against parquet-hadoop's encoder, at every bit width. */
class RleBitPackedDecoderTest {

  @Test
  void decodesWhatParquetHadoopEncodesAtEveryBitWidth() throws Exception {
    Random random = new Random(7);
    for (int width = 1; width <= 32; width++) {
      int[] values = values(random, width, 5_003);
      byte[] encoded = encode(values, width);

      int[] decoded = new int[values.length];
      new RleBitPackedDecoder(encoded, 0, encoded.length, width)
          .readInts(decoded, 0, values.length);

      assertThat(decoded).as("bit width %d", width).isEqualTo(values);
    }
  }

  @Test
  void decodesRunsThatEndAtTheLastByteOfTheArray() throws Exception {
    // The encoded bytes fill their array exactly, so the last values cannot be read as whole
    // 8-byte words; an offset into a larger array checks that the start is honoured too.
    Random random = new Random(11);
    for (int width : new int[] {1, 3, 7, 8, 13, 20, 31, 32}) {
      int[] values = new int[64];
      for (int i = 0; i < values.length; i++) {
        values[i] = (int) (random.nextLong() & ((1L << width) - 1)); // all distinct: bit-packed
      }
      byte[] encoded = encode(values, width);
      byte[] shifted = new byte[encoded.length + 3];
      System.arraycopy(encoded, 0, shifted, 3, encoded.length);

      int[] decoded = new int[values.length];
      new RleBitPackedDecoder(shifted, 3, shifted.length, width).readInts(decoded, 0, 64);

      assertThat(decoded).as("bit width %d", width).isEqualTo(values);
    }
  }

  @Test
  void readsInPiecesAndValueByValueMixedWithinARunEqualOneBulkRead() throws Exception {
    // Pieces of a run unpack straight into the caller's array from the middle of the run; a
    // value read one by one (levels) unpacks the run once, and the pieces after it come from there.
    Random random = new Random(13);
    for (int width : new int[] {1, 5, 12, 17, 32}) {
      int[] values = values(random, width, 3_001);
      byte[] encoded = encode(values, width);
      RleBitPackedDecoder decoder = new RleBitPackedDecoder(encoded, 0, encoded.length, width);
      int[] decoded = new int[values.length + 5];
      int at = 0;
      while (at < values.length) {
        if (random.nextInt(4) == 0) {
          decoded[5 + at++] = decoder.readInt();
        } else {
          int n = Math.min(values.length - at, 1 + random.nextInt(300));
          decoder.readInts(decoded, 5 + at, n);
          at += n;
        }
      }
      assertThat(Arrays.copyOfRange(decoded, 5, decoded.length))
          .as("bit width %d", width)
          .isEqualTo(values);
    }
  }

  @Test
  void aBitPackedRunLongerThanItsDataIsRejected() {
    // header: 4 groups (32 values) bit-packed, width 8, but only 5 bytes follow
    byte[] data = {(byte) ((4 << 1) | 1), 1, 2, 3, 4, 5};

    assertThatThrownBy(
            () -> new RleBitPackedDecoder(data, 0, data.length, 8).readInts(new int[32], 0, 32))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("past the end of the data");
  }

  /** Runs of repeats (RLE) mixed with stretches of random values (bit-packed). */
  private static int[] values(Random random, int width, int count) {
    long mask = (1L << width) - 1;
    int[] values = new int[count];
    int i = 0;
    while (i < count) {
      int run = 1 + random.nextInt(40);
      if (random.nextBoolean()) {
        Arrays.fill(values, i, Math.min(count, i + run), (int) (random.nextLong() & mask));
      } else {
        for (int j = i; j < Math.min(count, i + run); j++) {
          values[j] = (int) (random.nextLong() & mask);
        }
      }
      i += run;
    }
    return values;
  }

  private static byte[] encode(int[] values, int width) throws Exception {
    try (RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(width, 64, 1 << 20, new HeapByteBufferAllocator())) {
      for (int value : values) {
        encoder.writeInt(value);
      }
      return encoder.toBytes().toByteArray();
    }
  }
}
