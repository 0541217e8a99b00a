package dev.prefetch.orc.internal.stream;

import static org.assertj.core.api.Assertions.fail;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.io.WrittenStream;
import dev.prefetch.orc.internal.stream.IntegerStreams.Encoding;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.orc.CompressionKind;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random bytes, and valid streams with random bytes changed, fed to every decoder with random
 * requests, skips and seeks, for a bounded time: the only failure is a {@link
 * CorruptStreamException}, and nothing hangs or runs out of memory (every size a decoder reads is
 * checked before it allocates; the requests here are small).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamFuzzTest {

  /** Time each codec's run is given. */
  private static final long BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE", "ZLIB", "SNAPPY", "LZ4", "ZSTD"})
  void decodersFailOnlyAsCorruptOnRandomInput(CompressionKind kind) throws IOException {
    Random random = new Random(kind.ordinal() * 1_000_003L);
    byte[] valid =
        IntegerStreams.write(
                Encoding.RLE_V2,
                true,
                kind,
                128,
                IntegerStreams.mixture(random, 3000, true),
                new int[0])
            .bytes();
    long deadline = System.nanoTime() + BUDGET_NANOS;
    int trials = 0;
    try (DecompressionContext context = new WrittenStream(kind, 128).context()) {
      while (System.nanoTime() < deadline || trials < 200) {
        byte[] bytes = input(random, kind, valid);
        int decoder = random.nextInt(11);
        try (StreamInput a = context.open("a", bytes, 0, bytes.length);
            StreamInput b = context.open("b", bytes, 0, bytes.length)) {
          exercise(decoder, a, b, random);
        } catch (CorruptStreamException expected) {
          // the one failure corrupt input may cause
        } catch (RuntimeException e) {
          fail("decoder " + decoder + " on " + bytes.length + " random bytes threw " + e, e);
        }
        trials++;
      }
    }
  }

  /** Random bytes, a valid stream with some bytes changed, or random blocks with valid headers. */
  private static byte[] input(Random random, CompressionKind kind, byte[] valid) {
    switch (random.nextInt(3)) {
      case 0:
        {
          byte[] bytes = new byte[random.nextInt(600)];
          random.nextBytes(bytes);
          return bytes;
        }
      case 1:
        {
          byte[] bytes = valid.clone();
          for (int k = 1 + random.nextInt(4); k > 0; k--) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt();
          }
          return random.nextInt(4) == 0
              ? java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length))
              : bytes;
        }
      default:
        {
          if (kind == CompressionKind.NONE) {
            byte[] bytes = new byte[random.nextInt(100)];
            random.nextBytes(bytes);
            return bytes;
          }
          java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
          for (int blocks = random.nextInt(5); blocks > 0; blocks--) {
            int n = random.nextInt(130);
            int header = n << 1 | (random.nextInt(3) == 0 ? 1 : 0);
            out.write(header);
            out.write(header >>> 8);
            out.write(header >>> 16);
            for (int i = 0; i < n; i++) {
              out.write(random.nextInt());
            }
          }
          return out.toByteArray();
        }
    }
  }

  private static void exercise(int decoder, StreamInput a, StreamInput b, Random random)
      throws CorruptStreamException {
    int n = random.nextInt(3000);
    switch (decoder) {
      case 0, 1 -> {
        IntegerDecoder ints = IntegerDecoder.create(a, random.nextBoolean(), decoder == 1);
        ints.skip(random.nextInt(100));
        ints.decode(new long[n], 0, n);
        ints.decode(new int[n], 0, n);
        ints.decodeLengths(new int[n], 0, n);
        ints.decodeIds(new int[n], 0, n, 1 + random.nextInt(1000));
        ints.seek(positions(random, a));
        ints.decode(new long[n], 0, n);
      }
      case 2 -> {
        ByteRleDecoder bytes = new ByteRleDecoder(a);
        bytes.skipCountingBits(random.nextInt(100));
        bytes.decode(new byte[n], 0, n);
        bytes.seek(positions(random, a));
        bytes.next();
      }
      case 3 -> {
        BooleanDecoder bits = new BooleanDecoder(a);
        bits.skipCounting(random.nextInt(1000));
        bits.decodeNulls(new boolean[n], 0, n);
        bits.seek(positions(random, a));
        bits.decode(new boolean[n], 0, n);
      }
      case 4 -> {
        FloatDecoder floats = new FloatDecoder(a);
        floats.skip(random.nextInt(10));
        floats.decode(new float[n], 0, n);
      }
      case 5 -> {
        DoubleDecoder doubles = new DoubleDecoder(a);
        doubles.seek(positions(random, a));
        doubles.decode(new double[n], 0, n);
      }
      case 6 -> {
        DecimalDecoder decimals = new DecimalDecoder(a, IntegerDecoder.create(b, true, true));
        decimals.skip(random.nextInt(10));
        decimals.decode64(new long[n], new int[n], new boolean[n], 0, n);
        decimals.decode128(new long[n], new long[n], new int[n], new boolean[n], 0, n);
      }
      case 7 -> {
        TimestampDecoder timestamps =
            new TimestampDecoder(
                IntegerDecoder.create(a, true, true), IntegerDecoder.create(b, false, true), 0);
        timestamps.decode(new long[n], new int[n], 0, n);
        timestamps.skip(random.nextInt(100));
      }
      case 8 -> {
        StringDirectDecoder strings =
            new StringDirectDecoder(a, IntegerDecoder.create(b, false, true));
        int[] lengths = new int[n];
        long total = strings.decodeLengths(lengths, 0, n);
        // a column reader allocates from the checked total; the fuzz caps it to stay small
        int copy = (int) Math.min(total, 1 << 16);
        strings.readBytes(new byte[copy], 0, copy);
        strings.skip(random.nextInt(100));
      }
      case 9 ->
          StringDictionary.read(
              a,
              IntegerDecoder.create(b, false, random.nextBoolean()),
              random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(5000));
      default -> {
        a.seek(positions(random, a));
        while (a.hasMore()) {
          a.ensureUpTo(1 + random.nextInt(StreamInput.MAX_CONTIGUOUS_BYTES));
          a.position(a.limit());
        }
      }
    }
  }

  private static IndexPositions positions(Random random, StreamInput in) {
    long[] positions = new long[random.nextInt(5)];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(700);
    }
    return new IndexPositions(positions);
  }
}
