package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.io.WrittenStream;
import dev.prefetch.orc.internal.stream.IntegerStreams.Encoding;
import dev.prefetch.orc.internal.stream.IntegerStreams.Written;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.RunLengthIntegerReaderV2;
import org.apache.orc.impl.StreamName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Integer streams written by orc-core's RLE v1 and v2 writers (every sub-encoding and width, signed
 * and unsigned, with each codec and with blocks small enough that runs straddle them), decoded by
 * {@link IntegerDecoder} and compared value by value with what was written: in bulk, narrowed,
 * after skips, and after seeks to the positions orc-core's writers recorded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IntegerDecoderTest {

  static Stream<Arguments> encodingsSignsAndStreams() {
    List<Arguments> all = new ArrayList<>();
    Object[][] streams = {
      {CompressionKind.NONE, 1 << 18},
      {CompressionKind.ZLIB, 97},
      {CompressionKind.SNAPPY, 4096},
      {CompressionKind.ZSTD, 1 << 18}
    };
    for (Encoding encoding : Encoding.values()) {
      for (boolean signed : new boolean[] {true, false}) {
        for (Object[] stream : streams) {
          all.add(Arguments.of(encoding, signed, stream[0], stream[1]));
        }
      }
    }
    return all.stream();
  }

  private static IntegerDecoder decoder(
      DecompressionContext context, Written written, Encoding encoding, boolean signed) {
    StreamInput in = context.open("ints", written.bytes(), 0, written.bytes().length);
    return IntegerDecoder.create(in, signed, encoding.v2);
  }

  @ParameterizedTest(name = "{0}, signed {1}, {2} blocks of {3}")
  @MethodSource("encodingsSignsAndStreams")
  void decodesEverySubEncodingAndWidthOrcCoreWrites(
      Encoding encoding, boolean signed, CompressionKind kind, int blockSize) throws IOException {
    Random random = new Random(encoding.ordinal() * 7 + (signed ? 1 : 0));
    long[] values = IntegerStreams.everySubEncoding(random, signed);
    checkEveryWay(encoding, signed, kind, blockSize, values, random);
  }

  @ParameterizedTest(name = "{0}, signed {1}, {2} blocks of {3}")
  @MethodSource("encodingsSignsAndStreams")
  void decodesALongMixtureWithExtremes(
      Encoding encoding, boolean signed, CompressionKind kind, int blockSize) throws IOException {
    Random random = new Random(encoding.ordinal() * 11 + (signed ? 5 : 0) + blockSize);
    long[] values = IntegerStreams.mixture(random, 150_000, signed);
    checkEveryWay(encoding, signed, kind, blockSize, values, random);
  }

  private static void checkEveryWay(
      Encoding encoding,
      boolean signed,
      CompressionKind kind,
      int blockSize,
      long[] values,
      Random random)
      throws IOException {
    int[] marks = random.ints(150, 0, values.length).sorted().distinct().toArray();
    Written written = IntegerStreams.write(encoding, signed, kind, blockSize, values, marks);
    try (DecompressionContext context = new WrittenStream(kind, blockSize).context()) {
      // longs, in requests of random sizes (some inside a run, some across many)
      IntegerDecoder longs = decoder(context, written, encoding, signed);
      long[] out = new long[values.length + 10];
      int p = 0;
      while (p < values.length) {
        int n = Math.min(values.length - p, 1 + random.nextInt(random.nextBoolean() ? 10 : 3000));
        longs.decode(out, p + 3, n);
        p += n;
      }
      assertThat(Arrays.copyOfRange(out, 3, 3 + values.length)).isEqualTo(values);
      assertThatThrownBy(() -> longs.decode(new long[1], 0, 1))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("ends");

      // ints, narrowed as orc-core's readers narrow, with skips between
      IntegerDecoder ints = decoder(context, written, encoding, signed);
      int[] narrowed = new int[4000];
      p = 0;
      while (p < values.length) {
        int skip = Math.min(values.length - p, random.nextInt(2000));
        ints.skip(skip);
        p += skip;
        int n = Math.min(values.length - p, random.nextInt(4000));
        ints.decode(narrowed, 0, n);
        for (int i = 0; i < n; i++) {
          if (narrowed[i] != (int) values[p + i]) {
            assertThat(narrowed[i]).as("value %d", p + i).isEqualTo((int) values[p + i]);
          }
        }
        p += n;
      }

      // seeks to the recorded positions, in random order
      IntegerDecoder seeking = decoder(context, written, encoding, signed);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < marks.length; i++) {
        order.add(i);
      }
      Collections.shuffle(order, random);
      long[] window = new long[700];
      for (int i : order) {
        IndexPositions positions = new IndexPositions(written.positions().get(i));
        seeking.seek(positions);
        assertThat(positions.remaining()).isZero();
        int n = Math.min(window.length, values.length - marks[i]);
        seeking.decode(window, 0, n);
        assertThat(Arrays.copyOf(window, n))
            .as("values from %d", marks[i])
            .isEqualTo(Arrays.copyOfRange(values, marks[i], marks[i] + n));
      }
    }
  }

  @Test
  void orcCoresWriterIsMadeToUseEverySubEncodingAndWidth() throws IOException {
    TreeSet<String> expected = new TreeSet<>();
    for (int bytes = 1; bytes <= 8; bytes++) {
      expected.add("SHORT_REPEAT:" + bytes * 8);
    }
    for (int width = 1; width <= 64; width++) {
      expected.add("DIRECT:" + RleV2IntegerDecoder.closestFixedBits(width));
    }
    expected.add("DELTA:0");
    for (int width = 2; width <= 59; width++) {
      expected.add("DELTA:" + RleV2IntegerDecoder.closestFixedBits(width));
    }
    for (int width = 1; width <= 20; width++) {
      expected.add("PATCHED_BASE:" + width);
    }
    expected.add("PATCH_GAP_CHAIN");
    for (boolean signed : new boolean[] {true, false}) {
      long[] values = IntegerStreams.everySubEncoding(new Random(signed ? 1 : 0), signed);
      Written written =
          IntegerStreams.write(
              Encoding.RLE_V2, signed, CompressionKind.NONE, 1 << 18, values, new int[0]);
      TreeSet<String> seen = IntegerStreams.runKinds(written.bytes());
      TreeSet<String> missing = new TreeSet<>(expected);
      missing.removeAll(seen);
      assertThat(missing).as("signed %s: run kinds not written", signed).isEmpty();
      assertThat(seen.stream().filter(s -> s.startsWith("PATCH:")).count())
          .as("patch widths")
          .isGreaterThanOrEqualTo(5);
    }
    // aligned bit packing rounds every width up to 1, 2, 4, 8, 16, 24, 32, 40, 48, 56 or 64
    long[] values = IntegerStreams.everySubEncoding(new Random(2), false);
    TreeSet<String> aligned =
        IntegerStreams.runKinds(
            IntegerStreams.write(
                    Encoding.RLE_V2_ALIGNED,
                    false,
                    CompressionKind.NONE,
                    1 << 18,
                    values,
                    new int[0])
                .bytes());
    assertThat(aligned)
        .contains(
            "DIRECT:1",
            "DIRECT:2",
            "DIRECT:4",
            "DIRECT:8",
            "DIRECT:16",
            "DIRECT:24",
            "DIRECT:32",
            "DIRECT:40",
            "DIRECT:48",
            "DIRECT:56",
            "DIRECT:64")
        .doesNotContain("DIRECT:3", "DIRECT:12", "DIRECT:26");
  }

  /**
   * Runs no orc-core writer makes (deltas of 60 to 64 bits, patches of every width with gaps,
   * unsigned values past 2^63), written by hand and decoded by orc-core's own reader and by ours.
   */
  @Test
  void decodesHandWrittenRunsAsOrcCoresReaderDoes() throws IOException {
    Random random = new Random(9);
    List<byte[]> runs = new ArrayList<>();
    for (int code = 0; code < 32; code++) {
      int width = code == 0 ? 0 : RleV2IntegerDecoder.decodeWidth(code);
      int length = 2 + random.nextInt(511);
      ByteBuffer run = ByteBuffer.allocate(10_000);
      run.put((byte) (0xC0 | code << 1 | (length - 1) >>> 8)).put((byte) (length - 1));
      putVarint(run, random.nextLong() >>> 1);
      putVarint(run, random.nextLong());
      putPacked(run, random, length - 2, width);
      runs.add(Arrays.copyOf(run.array(), run.position()));
    }
    for (int code = 0; code < 32; code++) {
      int width = RleV2IntegerDecoder.decodeWidth(code);
      for (int patchCode = 0; patchCode < 32; patchCode++) {
        int patchWidth = RleV2IntegerDecoder.decodeWidth(patchCode);
        int gapWidth = 1 + random.nextInt(8);
        if (patchWidth + gapWidth > 64) {
          continue;
        }
        int length = 1 + random.nextInt(512);
        int patches = 1 + random.nextInt(31); // orc-core fails on an empty patch list
        int baseBytes = 1 + random.nextInt(8);
        ByteBuffer run = ByteBuffer.allocate(10_000);
        run.put((byte) (0x80 | code << 1 | (length - 1) >>> 8)).put((byte) (length - 1));
        run.put((byte) ((baseBytes - 1) << 5 | patchCode))
            .put((byte) ((gapWidth - 1) << 5 | patches));
        for (int i = 0; i < baseBytes; i++) {
          run.put((byte) random.nextInt());
        }
        putPacked(run, random, length, width);
        // gaps small enough that the patches stay inside the run (orc-core fails past it)
        int entryWidth = RleV2IntegerDecoder.closestFixedBits(patchWidth + gapWidth);
        long[] entries = new long[patches];
        int maxGap =
            Math.max(0, Math.min((1 << gapWidth) - 1, (length - 1) / Math.max(1, patches)));
        for (int k = 0; k < patches; k++) {
          long gap = maxGap == 0 ? 0 : random.nextInt(maxGap + 1);
          long patch = (random.nextLong() >>> (64 - patchWidth)) | 1;
          entries[k] = gap << patchWidth | patch;
        }
        putPacked(run, entries, entryWidth);
        runs.add(Arrays.copyOf(run.array(), run.position()));
      }
    }
    for (boolean signed : new boolean[] {true, false}) {
      for (byte[] run : runs) {
        long[] expected = orcCoreDecode(run, signed);
        StreamInput in =
            new WrittenStream(CompressionKind.NONE, 1).context().open("run", run, 0, run.length);
        long[] ours = new long[expected.length];
        IntegerDecoder.create(in, signed, true).decode(ours, 0, ours.length);
        assertThat(ours).as("run %02x", run[0]).isEqualTo(expected);
        assertThat(in.hasMore()).isFalse();
      }
    }
  }

  private static long[] orcCoreDecode(byte[] run, boolean signed) throws IOException {
    InStream in =
        InStream.create(
            new StreamName(1, OrcProto.Stream.Kind.DATA),
            new BufferChunk(ByteBuffer.wrap(run), 0),
            0,
            run.length);
    RunLengthIntegerReaderV2 reader = new RunLengthIntegerReaderV2(in, signed, false);
    IntegerStreams.Values out = new IntegerStreams.Values();
    while (reader.hasNext()) {
      out.add(reader.next());
    }
    return out.toArray();
  }

  private static void putVarint(ByteBuffer out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.put((byte) (0x80 | (value & 0x7F)));
      value >>>= 7;
    }
    out.put((byte) value);
  }

  private static void putPacked(ByteBuffer out, Random random, int count, int width) {
    long[] values = new long[count];
    for (int i = 0; i < count; i++) {
      values[i] = width == 0 ? 0 : random.nextLong() >>> (64 - width);
    }
    putPacked(out, values, width);
  }

  /** Big-endian bit packing, most significant bit first, padded to a byte. */
  private static void putPacked(ByteBuffer out, long[] values, int width) {
    if (width == 0) {
      return;
    }
    long bits = 0;
    int held = 0;
    for (long v : values) {
      for (int b = width - 1; b >= 0; b--) {
        bits = bits << 1 | ((v >>> b) & 1);
        if (++held == 8) {
          out.put((byte) bits);
          bits = 0;
          held = 0;
        }
      }
    }
    if (held > 0) {
      out.put((byte) (bits << (8 - held)));
    }
  }

  @Test
  void lengthsPastAnIntOrNegativeAreCorrupt() throws IOException {
    for (long bad : new long[] {-1, 1L << 31, Long.MIN_VALUE}) {
      Written written =
          IntegerStreams.write(
              Encoding.RLE_V2,
              false,
              CompressionKind.NONE,
              1 << 10,
              new long[] {5, bad, 7},
              new int[0]);
      IntegerDecoder lengths =
          decoder(
              new WrittenStream(CompressionKind.NONE, 1).context(),
              written,
              Encoding.RLE_V2,
              false);
      assertThatThrownBy(() -> lengths.decodeLengths(new int[3], 0, 3))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("a length of " + Long.toUnsignedString(bad));
    }
    Written fine =
        IntegerStreams.write(
            Encoding.RLE_V1,
            false,
            CompressionKind.NONE,
            1 << 10,
            new long[] {5, Integer.MAX_VALUE, 0},
            new int[0]);
    int[] out = new int[3];
    long sum =
        decoder(new WrittenStream(CompressionKind.NONE, 1).context(), fine, Encoding.RLE_V1, false)
            .decodeLengths(out, 0, 3);
    assertThat(out).containsExactly(5, Integer.MAX_VALUE, 0);
    assertThat(sum).isEqualTo(5L + Integer.MAX_VALUE);
  }

  @Test
  void idsOutsideTheDictionaryAreCorrupt() throws IOException {
    for (long bad : new long[] {10, 11, -1, 1L << 40}) {
      Written written =
          IntegerStreams.write(
              Encoding.RLE_V2,
              false,
              CompressionKind.NONE,
              1 << 10,
              new long[] {0, 9, bad, 3},
              new int[0]);
      IntegerDecoder ids =
          decoder(
              new WrittenStream(CompressionKind.NONE, 1).context(),
              written,
              Encoding.RLE_V2,
              false);
      int[] out = new int[4];
      assertThatThrownBy(() -> ids.decodeIds(out, 0, 4, 10))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("dictionary id " + Long.toUnsignedString(bad));
    }
    Written fine =
        IntegerStreams.write(
            Encoding.RLE_V2,
            false,
            CompressionKind.NONE,
            1 << 10,
            new long[] {0, 9, 9, 3},
            new int[0]);
    int[] out = new int[4];
    decoder(new WrittenStream(CompressionKind.NONE, 1).context(), fine, Encoding.RLE_V2, false)
        .decodeIds(out, 0, 4, 10);
    assertThat(out).containsExactly(0, 9, 9, 3);
  }

  @Test
  void maxRemainingValuesNeverUnderstatesWhatIsLeft() throws IOException {
    Random random = new Random(3);
    for (Encoding encoding : Encoding.values()) {
      long[] values = new long[100_000];
      Arrays.fill(values, 42); // the densest: long runs of one value
      for (CompressionKind kind :
          new CompressionKind[] {CompressionKind.NONE, CompressionKind.ZLIB}) {
        Written written = IntegerStreams.write(encoding, true, kind, 1 << 12, values, new int[0]);
        IntegerDecoder decoder =
            decoder(new WrittenStream(kind, 1 << 12).context(), written, encoding, true);
        long left = values.length;
        while (left > 0) {
          assertThat(decoder.maxRemainingValues()).isGreaterThanOrEqualTo(left);
          long n = Math.min(left, random.nextInt(5000));
          decoder.skip(n);
          left -= n;
        }
      }
    }
  }
}
