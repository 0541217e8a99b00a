package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.io.WrittenStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.IntegerWriter;
import org.apache.orc.impl.RunLengthIntegerWriterV2;
import org.apache.orc.impl.SerializationUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Floats and doubles written by orc-core's {@code SerializationUtils}, and decimals as orc-core
 * writes them (its unbounded varints of the unscaled value, the scales in signed RLE v2), decoded
 * by {@link FloatDecoder}, {@link DoubleDecoder} and {@link DecimalDecoder}: every bit pattern (NaN
 * payloads, infinities, signed zeros), values that straddle tiny blocks, skips and seeks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FloatingAndDecimalDecoderTest {

  private static final SerializationUtils UTILS = new SerializationUtils();

  static Stream<Arguments> streams() {
    return Stream.of(
        Arguments.of(CompressionKind.NONE, 1 << 18),
        Arguments.of(CompressionKind.ZLIB, 61),
        Arguments.of(CompressionKind.SNAPPY, 1000),
        Arguments.of(CompressionKind.ZSTD, 1 << 18));
  }

  @ParameterizedTest(name = "{0} blocks of {1}")
  @MethodSource("streams")
  void decodesFloatsAndDoublesBitForBit(CompressionKind kind, int blockSize) throws IOException {
    Random random = new Random(blockSize);
    int count = 60_000;
    float[] floats = new float[count];
    double[] doubles = new double[count];
    float[] specialFloats = {
      Float.NaN,
      Float.intBitsToFloat(0x7fc00001),
      Float.intBitsToFloat(0xffa00000),
      Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY,
      0.0f,
      -0.0f,
      Float.MIN_VALUE,
      Float.MAX_VALUE
    };
    double[] specialDoubles = {
      Double.NaN,
      Double.longBitsToDouble(0x7ff8000000000001L),
      Double.longBitsToDouble(0xfff4000000000000L),
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      0.0,
      -0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE
    };
    for (int i = 0; i < count; i++) {
      floats[i] =
          random.nextInt(20) == 0
              ? specialFloats[random.nextInt(specialFloats.length)]
              : Float.intBitsToFloat(random.nextInt());
      doubles[i] =
          random.nextInt(20) == 0
              ? specialDoubles[random.nextInt(specialDoubles.length)]
              : random.nextBoolean()
                  ? Double.longBitsToDouble(random.nextLong())
                  : random.nextInt(100) / 4.0;
    }
    int[] marks = random.ints(80, 0, count).sorted().distinct().toArray();
    WrittenStream floatStream = new WrittenStream(kind, blockSize);
    WrittenStream doubleStream = new WrittenStream(kind, blockSize);
    List<long[]> floatPositions = new ArrayList<>();
    List<long[]> doublePositions = new ArrayList<>();
    int m = 0;
    for (int i = 0; i < count; i++) {
      if (m < marks.length && marks[m] == i) {
        WrittenStream.Position f = new WrittenStream.Position();
        floatStream.out().getPosition(f);
        floatPositions.add(f.toArray());
        WrittenStream.Position d = new WrittenStream.Position();
        doubleStream.out().getPosition(d);
        doublePositions.add(d.toArray());
        m++;
      }
      UTILS.writeFloat(floatStream.out(), floats[i]);
      UTILS.writeDouble(doubleStream.out(), doubles[i]);
    }
    byte[] fb = floatStream.finish();
    byte[] db = doubleStream.finish();
    try (DecompressionContext context = floatStream.context()) {
      FloatDecoder f = new FloatDecoder(context.open("floats", fb, 0, fb.length));
      DoubleDecoder d = new DoubleDecoder(context.open("doubles", db, 0, db.length));
      float[] fo = new float[count];
      double[] dout = new double[count];
      int p = 0;
      while (p < count) {
        int skip = Math.min(count - p, random.nextInt(200));
        f.skip(skip);
        d.skip(skip);
        p += skip;
        int n = Math.min(count - p, random.nextInt(random.nextBoolean() ? 5 : 3000));
        f.decode(fo, p, n);
        d.decode(dout, p, n);
        for (int i = p; i < p + n; i++) {
          // orc-core writes floatToIntBits and doubleToLongBits: NaNs in their canonical form
          if (Float.floatToRawIntBits(fo[i]) != Float.floatToIntBits(floats[i])
              || Double.doubleToRawLongBits(dout[i]) != Double.doubleToLongBits(doubles[i])) {
            assertThat(Float.floatToRawIntBits(fo[i]))
                .as("float %d", i)
                .isEqualTo(Float.floatToIntBits(floats[i]));
            assertThat(Double.doubleToRawLongBits(dout[i]))
                .as("double %d", i)
                .isEqualTo(Double.doubleToLongBits(doubles[i]));
          }
        }
        p += n;
      }
      assertThatThrownBy(() -> f.decode(new float[1], 0, 1))
          .isInstanceOf(CorruptStreamException.class);
      assertThatThrownBy(() -> d.skip(1)).isInstanceOf(CorruptStreamException.class);

      FloatDecoder fs = new FloatDecoder(context.open("floats", fb, 0, fb.length));
      DoubleDecoder ds = new DoubleDecoder(context.open("doubles", db, 0, db.length));
      for (int k = marks.length - 1; k >= 0; k--) {
        fs.seek(new IndexPositions(floatPositions.get(k)));
        ds.seek(new IndexPositions(doublePositions.get(k)));
        int n = Math.min(100, count - marks[k]);
        float[] fw = new float[n];
        double[] dw = new double[n];
        fs.decode(fw, 0, n);
        ds.decode(dw, 0, n);
        for (int i = 0; i < n; i++) {
          assertThat(Float.floatToRawIntBits(fw[i]))
              .isEqualTo(Float.floatToIntBits(floats[marks[k] + i]));
          assertThat(Double.doubleToRawLongBits(dw[i]))
              .isEqualTo(Double.doubleToLongBits(doubles[marks[k] + i]));
        }
      }
    }
  }

  @Test
  void keepsTheBitsOfNaNsOtherWritersStore() throws IOException {
    // little-endian: a quiet float NaN with a payload, a quiet double NaN with a payload
    byte[] floats = {1, 0, (byte) 0xc0, 0x7f};
    byte[] doubles = {1, 0, 0, 0, 0, 0, (byte) 0xf8, 0x7f};
    try (DecompressionContext context = new WrittenStream(CompressionKind.NONE, 1).context()) {
      float[] f = new float[1];
      new FloatDecoder(context.open("f", floats, 0, 4)).decode(f, 0, 1);
      double[] d = new double[1];
      new DoubleDecoder(context.open("d", doubles, 0, 8)).decode(d, 0, 1);
      assertThat(Float.floatToRawIntBits(f[0])).isEqualTo(0x7fc00001);
      assertThat(Double.doubleToRawLongBits(d[0])).isEqualTo(0x7ff8000000000001L);
    }
  }

  /**
   * A decimal stream pair as orc-core writes one: varints of the unscaled values, scales in RLE v2.
   */
  private record Decimals(byte[] values, byte[] scales, List<long[]> positions) {}

  private static Decimals writeDecimals(
      CompressionKind kind, int blockSize, BigInteger[] unscaled, int[] scales, int[] marks)
      throws IOException {
    WrittenStream values = new WrittenStream(kind, blockSize);
    WrittenStream scaleStream = new WrittenStream(kind, blockSize);
    IntegerWriter scaleWriter = new RunLengthIntegerWriterV2(scaleStream.out(), true, false);
    List<long[]> positions = new ArrayList<>();
    int m = 0;
    for (int i = 0; i < unscaled.length; i++) {
      if (m < marks.length && marks[m] == i) {
        WrittenStream.Position position = new WrittenStream.Position();
        values.out().getPosition(position);
        scaleWriter.getPosition(position);
        positions.add(position.toArray());
        m++;
      }
      SerializationUtils.writeBigInteger(values.out(), unscaled[i]);
      scaleWriter.write(scales[i]);
    }
    scaleWriter.flush();
    return new Decimals(values.finish(), scaleStream.bytes(), positions);
  }

  private static BigInteger randomUnscaled(Random random) {
    switch (random.nextInt(5)) {
      case 0:
        return BigInteger.valueOf(random.nextInt(2000) - 1000);
      case 1:
        return BigInteger.valueOf(random.nextLong());
      case 2:
        // up to 38 digits: 127 bits
        return new BigInteger(1 + random.nextInt(127), random)
            .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
      case 3:
        return random.nextBoolean()
            ? BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE)
            : BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE);
      default:
        // past 128 bits, which no decimal holds
        return new BigInteger(128 + random.nextInt(100), random).negate();
    }
  }

  @ParameterizedTest(name = "{0} blocks of {1}")
  @MethodSource("streams")
  void decodesDecimalsInto64And128BitsAndMarksWhatDoesNotFit(CompressionKind kind, int blockSize)
      throws IOException {
    Random random = new Random(blockSize * 3L);
    int count = 20_000;
    BigInteger[] unscaled = new BigInteger[count];
    int[] scales = new int[count];
    for (int i = 0; i < count; i++) {
      unscaled[i] = randomUnscaled(random);
      scales[i] = random.nextInt(39);
    }
    int[] marks = random.ints(60, 0, count).sorted().distinct().toArray();
    Decimals written = writeDecimals(kind, blockSize, unscaled, scales, marks);
    BigInteger mask64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    try (DecompressionContext context = new WrittenStream(kind, blockSize).context()) {
      DecimalDecoder narrow = decoder(context, written);
      DecimalDecoder wide = decoder(context, written);
      long[] longs = new long[count];
      long[] high = new long[count];
      long[] low = new long[count];
      int[] scale64 = new int[count];
      int[] scale128 = new int[count];
      boolean[] unfit64 = new boolean[count];
      boolean[] unfit128 = new boolean[count];
      int p = 0;
      while (p < count) {
        int skip = Math.min(count - p, random.nextInt(50));
        narrow.skip(skip);
        wide.skip(skip);
        p += skip;
        int n = Math.min(count - p, random.nextInt(1000));
        narrow.decode64(longs, scale64, unfit64, p, n);
        wide.decode128(high, low, scale128, unfit128, p, n);
        for (int i = p; i < p + n; i++) {
          BigInteger v = unscaled[i];
          assertThat(scale64[i]).isEqualTo(scales[i]);
          assertThat(scale128[i]).isEqualTo(scales[i]);
          assertThat(unfit64[i]).as("64-bit unfit %s", v).isEqualTo(v.bitLength() > 63);
          assertThat(unfit128[i]).as("128-bit unfit %s", v).isEqualTo(v.bitLength() > 127);
          if (!unfit64[i]) {
            assertThat(longs[i]).isEqualTo(v.longValueExact());
          }
          if (!unfit128[i]) {
            BigInteger back =
                BigInteger.valueOf(high[i])
                    .shiftLeft(64)
                    .or(BigInteger.valueOf(low[i]).and(mask64));
            assertThat(back).isEqualTo(v);
          }
        }
        p += n;
      }
      DecimalDecoder seeking = decoder(context, written);
      for (int k = marks.length - 1; k >= 0; k--) {
        IndexPositions index = new IndexPositions(written.positions().get(k));
        seeking.seek(index);
        assertThat(index.remaining()).isZero();
        int n = Math.min(50, count - marks[k]);
        seeking.decode128(high, low, scale128, unfit128, 0, n);
        for (int i = 0; i < n; i++) {
          BigInteger v = unscaled[marks[k] + i];
          assertThat(scale128[i]).isEqualTo(scales[marks[k] + i]);
          if (v.bitLength() <= 127) {
            assertThat(
                    BigInteger.valueOf(high[i])
                        .shiftLeft(64)
                        .or(BigInteger.valueOf(low[i]).and(mask64)))
                .isEqualTo(v);
          }
        }
      }
    }
  }

  private static DecimalDecoder decoder(DecompressionContext context, Decimals written) {
    StreamInput values = context.open("decimal DATA", written.values(), 0, written.values().length);
    StreamInput scales =
        context.open("decimal SECONDARY", written.scales(), 0, written.scales().length);
    return new DecimalDecoder(values, IntegerDecoder.create(scales, true, true));
  }

  @Test
  void aDecimalVarintCutOffByTheStreamsEndIsCorrupt() throws IOException {
    Decimals written =
        writeDecimals(
            CompressionKind.NONE,
            1,
            new BigInteger[] {BigInteger.ONE.shiftLeft(100)},
            new int[] {3},
            new int[0]);
    byte[] cut = java.util.Arrays.copyOf(written.values(), written.values().length - 1);
    try (DecompressionContext context = new WrittenStream(CompressionKind.NONE, 1).context()) {
      DecimalDecoder decoder =
          new DecimalDecoder(
              context.open("decimal DATA", cut, 0, cut.length),
              IntegerDecoder.create(
                  context.open("scales", written.scales(), 0, written.scales().length),
                  true,
                  true));
      assertThatThrownBy(() -> decoder.decode64(new long[1], new int[1], new boolean[1], 0, 1))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("inside a decimal's varint");
    }
  }
}
