package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.io.WrittenStream;
import dev.prefetch.orc.internal.stream.IntegerStreams.Encoding;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.BitFieldWriter;
import org.apache.orc.impl.IntegerWriter;
import org.apache.orc.impl.RunLengthByteWriter;
import org.apache.orc.impl.RunLengthIntegerWriterV2;
import org.apache.orc.impl.SerializationUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Streams cut short at every byte, run headers no writer can make, lengths and sizes past what the
 * streams hold: each decoder fails with a {@link CorruptStreamException} at once, and allocates
 * nothing from a size it has not checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CorruptStreamsTest {

  /** Decodes a whole stream of {@code count} values from {@code bytes}. */
  private interface Decode {
    void run(DecompressionContext context, byte[] bytes, int count) throws IOException;
  }

  /**
   * Cuts {@code bytes} at every length short of the whole and decodes {@code count} values from
   * each: every cut fails as corrupt, none with another exception.
   */
  private static void everyCutIsCorrupt(
      CompressionKind kind, byte[] bytes, int count, Decode decode) throws IOException {
    try (DecompressionContext context = new WrittenStream(kind, 256).context()) {
      decode.run(context, bytes, count); // the whole stream decodes
      for (int length = 0; length < bytes.length; length++) {
        byte[] cut = Arrays.copyOf(bytes, length);
        try {
          decode.run(context, cut, count);
          fail("a stream cut to " + length + " of " + bytes.length + " bytes decoded");
        } catch (CorruptStreamException expected) {
          assertThat(expected.stream()).isNotEmpty();
        }
      }
    }
  }

  private static byte[] integers(Encoding encoding, CompressionKind kind, long[] values)
      throws IOException {
    return IntegerStreams.write(encoding, true, kind, 256, values, new int[0]).bytes();
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE", "ZLIB", "ZSTD"})
  void integerStreamsCutAtAnyByteAreCorrupt(CompressionKind kind) throws IOException {
    long[] values = IntegerStreams.mixture(new Random(1), 600, true);
    for (Encoding encoding : Encoding.values()) {
      everyCutIsCorrupt(
          kind,
          integers(encoding, kind, values),
          values.length,
          (context, bytes, count) ->
              IntegerDecoder.create(context.open("ints", bytes, 0, bytes.length), true, encoding.v2)
                  .decode(new long[count], 0, count));
      // skipping passes over runs without decoding them; it must find the cut too
      everyCutIsCorrupt(
          kind,
          integers(encoding, kind, values),
          values.length,
          (context, bytes, count) ->
              IntegerDecoder.create(context.open("ints", bytes, 0, bytes.length), true, encoding.v2)
                  .skip(count));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE", "SNAPPY"})
  void byteBooleanFloatDoubleAndDecimalStreamsCutAtAnyByteAreCorrupt(CompressionKind kind)
      throws IOException {
    Random random = new Random(2);
    WrittenStream bytes = new WrittenStream(kind, 256);
    RunLengthByteWriter byteWriter = new RunLengthByteWriter(bytes.out());
    WrittenStream bits = new WrittenStream(kind, 256);
    BitFieldWriter bitWriter = new BitFieldWriter(bits.out(), 1);
    WrittenStream doubles = new WrittenStream(kind, 256);
    WrittenStream decimals = new WrittenStream(kind, 256);
    WrittenStream scales = new WrittenStream(kind, 256);
    IntegerWriter scaleWriter = new RunLengthIntegerWriterV2(scales.out(), true, false);
    SerializationUtils utils = new SerializationUtils();
    int count = 403; // not a multiple of 8: the last byte of booleans is partly padding
    for (int i = 0; i < count; i++) {
      byteWriter.write((byte) (i % 50 < 20 ? 3 : random.nextInt()));
      bitWriter.write(random.nextInt(3) == 0 ? 1 : 0);
      utils.writeDouble(doubles.out(), random.nextDouble());
      SerializationUtils.writeBigInteger(
          decimals.out(), new BigInteger(random.nextInt(100), random));
      scaleWriter.write(random.nextInt(10));
    }
    byteWriter.flush();
    bitWriter.flush();
    scaleWriter.flush();
    byte[] scaleBytes = scales.bytes();
    everyCutIsCorrupt(
        kind,
        bytes.finish(),
        count,
        (context, b, n) ->
            new ByteRleDecoder(context.open("bytes", b, 0, b.length)).decode(new byte[n], 0, n));
    everyCutIsCorrupt(
        kind,
        bits.finish(),
        count,
        (context, b, n) ->
            new BooleanDecoder(context.open("bits", b, 0, b.length))
                .decodeNulls(new boolean[n], 0, n));
    everyCutIsCorrupt(
        kind,
        doubles.finish(),
        count,
        (context, b, n) ->
            new DoubleDecoder(context.open("doubles", b, 0, b.length)).decode(new double[n], 0, n));
    everyCutIsCorrupt(
        kind,
        decimals.finish(),
        count,
        (context, b, n) ->
            new DecimalDecoder(
                    context.open("decimals", b, 0, b.length),
                    IntegerDecoder.create(
                        context.open("scales", scaleBytes, 0, scaleBytes.length), true, true))
                .decode64(new long[n], new int[n], new boolean[n], 0, n));
  }

  @Test
  void stringBytesAndLengthsCutAtAnyByteAreCorrupt() throws IOException {
    Random random = new Random(3);
    int count = 300;
    long[] lengths = new long[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      lengths[i] = random.nextInt(12);
      total += lengths[i];
    }
    byte[] data = new byte[(int) total];
    random.nextBytes(data);
    byte[] lengthBytes =
        IntegerStreams.write(Encoding.RLE_V2, false, CompressionKind.NONE, 1, lengths, new int[0])
            .bytes();
    everyCutIsCorrupt(
        CompressionKind.NONE,
        data,
        count,
        (context, b, n) ->
            readStrings(
                context.open("data", b, 0, b.length),
                context.open("lengths", lengthBytes, 0, lengthBytes.length),
                n));
    everyCutIsCorrupt(
        CompressionKind.NONE,
        lengthBytes,
        count,
        (context, b, n) ->
            readStrings(
                context.open("data", data, 0, data.length),
                context.open("lengths", b, 0, b.length),
                n));
    // a dictionary of those entries, cut anywhere
    everyCutIsCorrupt(
        CompressionKind.NONE,
        data,
        count,
        (context, b, n) ->
            StringDictionary.read(
                context.open("dictionary", b, 0, b.length),
                IntegerDecoder.create(
                    context.open("lengths", lengthBytes, 0, lengthBytes.length), false, true),
                n));
  }

  private static void readStrings(StreamInput data, StreamInput lengths, int count)
      throws CorruptStreamException {
    StringDirectDecoder decoder =
        new StringDirectDecoder(data, IntegerDecoder.create(lengths, false, true));
    int[] out = new int[count];
    long total = decoder.decodeLengths(out, 0, count);
    decoder.readBytes(new byte[(int) total], 0, (int) total);
  }

  private static StreamInput open(byte... bytes) {
    return new WrittenStream(CompressionKind.NONE, 1).context().open("bad", bytes, 0, bytes.length);
  }

  @Test
  void aPatchWiderThan64BitsWithItsGapIsCorrupt() {
    // PATCHED_BASE, 8-bit values, 2 of them; base 1 byte, patches of 64 bits (code 31), gaps of 8
    byte[] run = {(byte) (0x80 | 7 << 1), 1, (byte) (0 << 5 | 31), (byte) (7 << 5 | 1), 0, 1, 2};
    assertThatThrownBy(
            () -> IntegerDecoder.create(open(run), false, true).decode(new long[2], 0, 2))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("more than 64 bits");
    assertThatThrownBy(() -> IntegerDecoder.create(open(run), false, true).skip(2))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("more than 64 bits");
  }

  @Test
  void aDeltaRunOfOneValueWithPackedDeltasIsCorrupt() {
    byte[] run = {(byte) (0xC0 | 3 << 1), 0, 2, 2, 0};
    assertThatThrownBy(
            () -> IntegerDecoder.create(open(run), false, true).decode(new long[1], 0, 1))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("DELTA run of one value");
  }

  @Test
  void aVarintLongerThanTenBytesIsCorrupt() {
    byte[] run = new byte[14];
    Arrays.fill(run, (byte) 0x80);
    run[0] = (byte) -1; // RLE v1 literals: one varint
    assertThatThrownBy(
            () -> IntegerDecoder.create(open(run), false, false).decode(new long[1], 0, 1))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("longer than a 64-bit value takes");
  }

  @Test
  void stringLengthsPastTheDataStreamAreCorruptBeforeAnythingIsAllocated() throws IOException {
    byte[] lengths =
        IntegerStreams.write(
                Encoding.RLE_V2,
                false,
                CompressionKind.NONE,
                1,
                new long[] {Integer.MAX_VALUE, 5},
                new int[0])
            .bytes();
    StringDirectDecoder decoder =
        new StringDirectDecoder(
            open(new byte[100]), IntegerDecoder.create(open(lengths), false, true));
    assertThatThrownBy(() -> decoder.decodeLengths(new int[2], 0, 2))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("more than the rest of the stream can hold (100)");
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE", "ZLIB", "ZSTD"})
  void aDictionaryLargerThanItsStreamsCanHoldIsCorruptBeforeAnythingIsAllocated(
      CompressionKind kind) throws IOException {
    byte[] lengths =
        IntegerStreams.write(Encoding.RLE_V2, false, kind, 1024, new long[] {1, 2, 3}, new int[0])
            .bytes();
    byte[] data = new byte[6];
    try (DecompressionContext context = new WrittenStream(kind, 1024).context()) {
      for (int size : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 9, 1 << 28, -1}) {
        assertThatThrownBy(
                () ->
                    StringDictionary.read(
                        context.open("dictionary", data, 0, data.length),
                        IntegerDecoder.create(
                            context.open("lengths", lengths, 0, lengths.length), false, true),
                        size))
            .isInstanceOf(CorruptStreamException.class)
            .hasMessageContaining("entries");
      }
      // entries whose lengths add up past the data stream
      byte[] big =
          IntegerStreams.write(
                  Encoding.RLE_V2,
                  false,
                  kind,
                  1024,
                  new long[] {Integer.MAX_VALUE - 9, 9},
                  new int[0])
              .bytes();
      assertThatThrownBy(
              () ->
                  StringDictionary.read(
                      context.open("dictionary", data, 0, data.length),
                      IntegerDecoder.create(
                          context.open("lengths", big, 0, big.length), false, true),
                      2))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("more than the stream can hold");
    }
  }

  /**
   * Not corrupt: orc-core reads nanoseconds of a second or more (and those that narrow to a
   * negative int, as Arrow's ORC writer stores some values before 1970) as they are, in int
   * arithmetic, and so do we.
   */
  @Test
  void nanosecondsOutOfTheirRangeAreReadAsOrcCoreReadsThem() throws IOException {
    byte[] seconds =
        IntegerStreams.write(
                Encoding.RLE_V2, true, CompressionKind.NONE, 1, new long[] {1, 2}, new int[0])
            .bytes();
    long narrowsNegative = (3_000_000_000L << 3) | 1; // 3e10, narrowed to an int
    for (long serialized : new long[] {10L << 3 | 7, 1_000_000_000L << 3, narrowsNegative}) {
      byte[] nanos =
          IntegerStreams.write(
                  Encoding.RLE_V2,
                  false,
                  CompressionKind.NONE,
                  1,
                  new long[] {0, serialized},
                  new int[0])
              .bytes();
      TimestampDecoder decoder =
          new TimestampDecoder(
              IntegerDecoder.create(open(seconds), true, true),
              IntegerDecoder.create(open(nanos), false, true),
              0);
      long[] millis = new long[2];
      int[] nano = new int[2];
      decoder.decode(millis, nano, 0, 2);
      int zeros = (int) serialized & 7;
      int expected = (int) (serialized >>> 3);
      if (zeros != 0) {
        expected *= (int) Math.pow(10, zeros + 1);
      }
      assertThat(nano).containsExactly(0, expected);
      assertThat(millis).containsExactly(1000, 2000 + expected / 1_000_000);
    }
  }
}
