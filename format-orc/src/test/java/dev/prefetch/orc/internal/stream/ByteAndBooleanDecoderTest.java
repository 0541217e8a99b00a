package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.WrittenStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.BitFieldWriter;
import org.apache.orc.impl.RunLengthByteWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte RLE and boolean streams written by orc-core's {@code RunLengthByteWriter} and {@code
 * BitFieldWriter}, decoded by {@link ByteRleDecoder} and {@link BooleanDecoder}: bytes, booleans,
 * null masks with their counts, skips (counting set bits) and seeks to the positions orc-core
 * recorded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ByteAndBooleanDecoderTest {

  static Stream<Arguments> streams() {
    return Stream.of(
        Arguments.of(CompressionKind.NONE, 1 << 18),
        Arguments.of(CompressionKind.ZLIB, 61),
        Arguments.of(CompressionKind.LZ4, 1000),
        Arguments.of(CompressionKind.ZSTD, 1 << 18));
  }

  /** Runs of one byte (3 to 130 and more), literal stretches and random bytes. */
  static byte[] bytes(Random random, int count) {
    byte[] out = new byte[count];
    int p = 0;
    while (p < count) {
      int n = Math.min(count - p, 1 + random.nextInt(random.nextBoolean() ? 5 : 400));
      switch (random.nextInt(3)) {
        case 0:
          Arrays.fill(out, p, p + n, (byte) random.nextInt());
          break;
        case 1:
          for (int i = 0; i < n; i++) {
            out[p + i] = (byte) (i % 7);
          }
          break;
        default:
          for (int i = 0; i < n; i++) {
            out[p + i] = (byte) random.nextInt();
          }
      }
      p += n;
    }
    return out;
  }

  /** Booleans in stretches: all set, all clear, random, sparse. */
  static boolean[] booleans(Random random, int count) {
    boolean[] out = new boolean[count];
    int p = 0;
    while (p < count) {
      int n = Math.min(count - p, 1 + random.nextInt(3000));
      int kind = random.nextInt(4);
      for (int i = 0; i < n; i++) {
        out[p + i] =
            kind == 0
                || (kind == 2 && random.nextBoolean())
                || (kind == 3 && random.nextInt(50) == 0);
      }
      p += n;
    }
    return out;
  }

  @ParameterizedTest(name = "{0} blocks of {1}")
  @MethodSource("streams")
  void decodesBytesOrcCoreWroteWithSkipsAndSeeks(CompressionKind kind, int blockSize)
      throws IOException {
    Random random = new Random(blockSize);
    byte[] values = bytes(random, 200_000);
    int[] marks = random.ints(100, 0, values.length).sorted().distinct().toArray();
    WrittenStream stream = new WrittenStream(kind, blockSize);
    RunLengthByteWriter writer = new RunLengthByteWriter(stream.out());
    List<long[]> positions = new ArrayList<>();
    int m = 0;
    for (int i = 0; i < values.length; i++) {
      if (m < marks.length && marks[m] == i) {
        WrittenStream.Position position = new WrittenStream.Position();
        writer.getPosition(position);
        positions.add(position.toArray());
        m++;
      }
      writer.write(values[i]);
    }
    writer.flush();
    byte[] bytes = stream.bytes();
    try (DecompressionContext context = stream.context()) {
      ByteRleDecoder decoder = new ByteRleDecoder(context.open("bytes", bytes, 0, bytes.length));
      byte[] out = new byte[values.length];
      int p = 0;
      while (p < values.length) {
        int skip = Math.min(values.length - p, random.nextInt(300));
        decoder.skip(skip);
        p += skip;
        if (p < values.length && random.nextInt(4) == 0) {
          out[p] = decoder.next();
          assertThat(out[p]).isEqualTo(values[p]);
          p++;
        }
        int n = Math.min(values.length - p, random.nextInt(1000));
        decoder.decode(out, p, n);
        assertThat(Arrays.copyOfRange(out, p, p + n))
            .isEqualTo(Arrays.copyOfRange(values, p, p + n));
        p += n;
      }
      assertThatThrownBy(decoder::next).isInstanceOf(CorruptStreamException.class);

      ByteRleDecoder seeking = new ByteRleDecoder(context.open("seek", bytes, 0, bytes.length));
      List<Integer> order = shuffled(marks.length, random);
      for (int i : order) {
        seeking.seek(new IndexPositions(positions.get(i)));
        int n = Math.min(500, values.length - marks[i]);
        byte[] window = new byte[n];
        seeking.decode(window, 0, n);
        assertThat(window).isEqualTo(Arrays.copyOfRange(values, marks[i], marks[i] + n));
      }
    }
  }

  @ParameterizedTest(name = "{0} blocks of {1}")
  @MethodSource("streams")
  void decodesBooleansAndNullMasksOrcCoreWroteWithCountingSkipsAndSeeks(
      CompressionKind kind, int blockSize) throws IOException {
    Random random = new Random(blockSize + 1);
    boolean[] values = booleans(random, 300_000);
    int[] marks = random.ints(100, 0, values.length).sorted().distinct().toArray();
    WrittenStream stream = new WrittenStream(kind, blockSize);
    BitFieldWriter writer = new BitFieldWriter(stream.out(), 1);
    List<long[]> positions = new ArrayList<>();
    int m = 0;
    for (int i = 0; i < values.length; i++) {
      if (m < marks.length && marks[m] == i) {
        WrittenStream.Position position = new WrittenStream.Position();
        writer.getPosition(position);
        positions.add(position.toArray());
        m++;
      }
      writer.write(values[i] ? 1 : 0);
    }
    writer.flush();
    byte[] bytes = stream.bytes();
    try (DecompressionContext context = stream.context()) {
      BooleanDecoder booleans =
          new BooleanDecoder(context.open("booleans", bytes, 0, bytes.length));
      BooleanDecoder nulls = new BooleanDecoder(context.open("present", bytes, 0, bytes.length));
      boolean[] out = new boolean[5000];
      boolean[] mask = new boolean[5000];
      int p = 0;
      while (p < values.length) {
        int skip = Math.min(values.length - p, random.nextInt(random.nextBoolean() ? 9 : 3000));
        booleans.skip(skip);
        assertThat(nulls.skipCounting(skip)).isEqualTo(countSet(values, p, p + skip));
        p += skip;
        int n = Math.min(values.length - p, random.nextInt(random.nextBoolean() ? 9 : 5000));
        booleans.decode(out, 0, n);
        int present = nulls.decodeNulls(mask, 0, n);
        assertThat(present).isEqualTo(countSet(values, p, p + n));
        for (int i = 0; i < n; i++) {
          if (out[i] != values[p + i] || mask[i] == values[p + i]) {
            assertThat(out[i]).as("boolean %d", p + i).isEqualTo(values[p + i]);
            assertThat(mask[i]).as("null %d", p + i).isEqualTo(!values[p + i]);
          }
        }
        p += n;
      }

      BooleanDecoder seeking = new BooleanDecoder(context.open("seek", bytes, 0, bytes.length));
      for (int i : shuffled(marks.length, random)) {
        IndexPositions index = new IndexPositions(positions.get(i));
        seeking.seek(index);
        assertThat(index.remaining()).isZero();
        int n = Math.min(700, values.length - marks[i]);
        boolean[] window = new boolean[n];
        seeking.decode(window, 0, n);
        assertThat(window).isEqualTo(Arrays.copyOfRange(values, marks[i], marks[i] + n));
      }
    }
  }

  @Test
  void aBitPositionPastItsByteIsCorrupt() throws IOException {
    WrittenStream stream = new WrittenStream(CompressionKind.NONE, 1);
    BitFieldWriter writer = new BitFieldWriter(stream.out(), 1);
    for (int i = 0; i < 100; i++) {
      writer.write(i & 1);
    }
    writer.flush();
    byte[] bytes = stream.bytes();
    BooleanDecoder decoder =
        new BooleanDecoder(stream.context().open("present", bytes, 0, bytes.length));
    assertThatThrownBy(() -> decoder.seek(new IndexPositions(new long[] {0, 0, 9})))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("bit 9");
    decoder.seek(new IndexPositions(new long[] {0, 1, 8}));
    boolean[] out = new boolean[8];
    decoder.decode(out, 0, 8);
    assertThat(out).containsExactly(false, true, false, true, false, true, false, true);
  }

  private static long countSet(boolean[] values, int from, int to) {
    long n = 0;
    for (int i = from; i < to; i++) {
      n += values[i] ? 1 : 0;
    }
    return n;
  }

  private static List<Integer> shuffled(int n, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    return order;
  }
}
