package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.WrittenStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.orc.CompressionKind;
import org.apache.orc.impl.IntegerWriter;
import org.apache.orc.impl.OutStream;
import org.apache.orc.impl.RunLengthIntegerWriter;
import org.apache.orc.impl.RunLengthIntegerWriterV2;

/**
 * Integer streams written by orc-core's own RLE writers, the value sequences that make those
 * writers choose each sub-encoding and width, and a walker over RLE v2 run headers that shows which
 * ones a stream holds.
 */
final class IntegerStreams {

  private IntegerStreams() {}

  /** orc-core's integer writers. */
  enum Encoding {
    RLE_V1(false),
    RLE_V2(true),
    /** RLE v2 with widths rounded to the aligned ones (1, 2, 4, 8, 16, 24, 32, ... 64). */
    RLE_V2_ALIGNED(true);

    final boolean v2;

    Encoding(boolean v2) {
      this.v2 = v2;
    }

    IntegerWriter writer(OutStream out, boolean signed) {
      switch (this) {
        case RLE_V1:
          return new RunLengthIntegerWriter(out, signed);
        case RLE_V2:
          return new RunLengthIntegerWriterV2(out, signed, false);
        default:
          return new RunLengthIntegerWriterV2(out, signed, true);
      }
    }
  }

  /** A stream of {@code values} and the positions recorded before the values at {@code marks}. */
  record Written(byte[] bytes, long[] values, int[] marks, List<long[]> positions) {}

  static Written write(
      Encoding encoding,
      boolean signed,
      CompressionKind kind,
      int blockSize,
      long[] values,
      int[] marks)
      throws IOException {
    WrittenStream stream = new WrittenStream(kind, blockSize);
    IntegerWriter writer = encoding.writer(stream.out(), signed);
    List<long[]> positions = new ArrayList<>();
    int m = 0;
    for (int i = 0; i < values.length; i++) {
      while (m < marks.length && marks[m] == i) {
        WrittenStream.Position position = new WrittenStream.Position();
        writer.getPosition(position);
        positions.add(position.toArray());
        m++;
      }
      writer.write(values[i]);
    }
    writer.flush();
    return new Written(stream.bytes(), values, marks, positions);
  }

  /** Appends to a growing sequence. */
  static final class Values {
    private long[] values = new long[1024];
    private int size;

    void add(long value) {
      if (size == values.length) {
        values = java.util.Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    void addAll(long[] more) {
      for (long v : more) {
        add(v);
      }
    }

    int size() {
      return size;
    }

    long last() {
      return size == 0 ? 0 : values[size - 1];
    }

    long[] toArray() {
      return java.util.Arrays.copyOf(values, size);
    }
  }

  /** A value whose stored form (zigzag when signed) is {@code stored}. */
  static long fromStored(long stored, boolean signed) {
    return signed ? (stored >>> 1) ^ -(stored & 1) : stored;
  }

  /**
   * A uniformly random stored form of exactly {@code width} bits, or fewer when {@code width < 2}.
   */
  static long storedOfWidth(Random random, int width) {
    if (width == 64) {
      return random.nextLong() | Long.MIN_VALUE;
    }
    long top = 1L << (width - 1);
    return top | (random.nextLong() & (top - 1));
  }

  /** Three copies of a value that differs from {@code last}: ends the writer's run before it. */
  static void cut(Values out, Random random, long last) {
    long v = last ^ (1 + random.nextInt(1000));
    for (int i = 0; i < 3; i++) {
      out.add(v);
    }
  }

  /**
   * Sequences for every sub-encoding and width orc-core's RLE v2 writer chooses: SHORT_REPEAT of 1
   * to 8 bytes and 3 to 10 values; DIRECT at every width 1 to 64 (uniform values of that width,
   * whose 90th and 100th percentile widths differ by less than 2); PATCHED_BASE with data widths 1
   * to 20, outliers 3 to 40 bits wider, some more than 255 values apart; DELTA with a fixed delta
   * (and width 0), and increasing and decreasing runs of packed deltas up to 59 bits (the writer
   * packs 1-bit deltas at 2 bits: width code 0 means a fixed delta); constant runs longer than 10.
   */
  static long[] everySubEncoding(Random random, boolean signed) {
    Values out = new Values();
    for (int bytes = 1; bytes <= 8; bytes++) {
      for (int count = 3; count <= 10; count++) {
        long stored = storedOfWidth(random, 8 * bytes - random.nextInt(7));
        out.add(fromStored(stored, signed) ^ 1);
        for (int i = 0; i < count; i++) {
          out.add(fromStored(stored, signed));
        }
      }
    }
    for (int width = 1; width <= 64; width++) {
      cut(out, random, out.last()); // the next 512 values make one run
      for (int i = 0; i < 512; i++) {
        long stored =
            width == 1
                ? random.nextInt(2)
                : random.nextBoolean()
                    ? storedOfWidth(random, width)
                    : storedOfWidth(random, width - 1);
        out.add(fromStored(stored, signed));
      }
    }
    for (int dataWidth = 1; dataWidth <= 20; dataWidth++) {
      for (int extra : new int[] {3, 10, 40, 3, 10, 40}) {
        int outlierWidth = Math.min(dataWidth + extra, signed ? 54 : 55);
        long base =
            signed && random.nextBoolean()
                ? -(1L << 20) + random.nextInt(1000)
                : random.nextInt(1 << 20);
        cut(out, random, out.last());
        long last = -1;
        long beforeLast = -2;
        for (int i = 0; i < 512; i++) {
          boolean outlier = i == 7 || i == 300 || i == 511 || random.nextInt(100) == 0;
          long offset =
              outlier
                  ? storedOfWidth(random, outlierWidth)
                  : random.nextLong() & ((1L << dataWidth) - 1);
          if (offset == last && offset == beforeLast) {
            offset ^= 1; // three equal values would end the writer's run early
          }
          out.add(base + offset);
          beforeLast = last;
          last = offset;
        }
      }
    }
    for (int deltaWidth = 0; deltaWidth <= 59; deltaWidth++) {
      for (boolean increasing : new boolean[] {true, false}) {
        int length = deltaWidth > 50 ? 4 + random.nextInt(8) : 5 + random.nextInt(500);
        cut(out, random, out.last());
        long v = increasing ? -(1L << 62) + 17 : (1L << 62) - 17;
        long fixed = 1 + random.nextInt(5);
        long lastDelta = 1;
        for (int i = 0; i < length; i++) {
          out.add(v);
          long delta;
          if (deltaWidth == 0) {
            delta = fixed;
          } else if (i == 1) {
            delta = storedOfWidth(random, deltaWidth); // the widest of the packed deltas
          } else {
            // deltas of 0 allowed, but never two in a row (three equal values end the run)
            delta = random.nextLong() & ((1L << deltaWidth) - 1);
            if (i == 0 || (delta == 0 && lastDelta == 0)) {
              delta = 1;
            }
          }
          lastDelta = delta;
          v += increasing ? delta : -delta;
        }
        cut(out, random, v);
      }
    }
    for (int length : new int[] {11, 100, 511, 512, 513, 2000}) {
      long v = random.nextLong();
      for (int i = 0; i < length; i++) {
        out.add(v);
      }
      out.add(v + 1);
    }
    return out.toArray();
  }

  /** A long random mixture of the shapes columns have, with extremes. */
  static long[] mixture(Random random, int count, boolean signed) {
    Values out = new Values();
    long[] extremes = {
      0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE
    };
    while (out.size() < count) {
      int n = 1 + random.nextInt(700);
      switch (random.nextInt(6)) {
        case 0:
          {
            long v = random.nextLong() >> random.nextInt(64);
            for (int i = 0; i < n; i++) {
              out.add(v);
            }
            break;
          }
        case 1:
          {
            long v = random.nextInt();
            long d = random.nextInt(2000) - 1000;
            for (int i = 0; i < n; i++, v += d) {
              out.add(v);
            }
            break;
          }
        case 2:
          {
            int width = 1 + random.nextInt(64);
            for (int i = 0; i < n; i++) {
              out.add(fromStored(random.nextLong() >>> (64 - width), signed));
            }
            break;
          }
        case 3:
          for (int i = 0; i < n; i++) {
            out.add(extremes[random.nextInt(extremes.length)]);
          }
          break;
        case 4:
          {
            long v = random.nextInt(1000);
            for (int i = 0; i < n; i++) {
              v += random.nextInt(1 << random.nextInt(20));
              out.add(v);
            }
            break;
          }
        default:
          for (int i = 0; i < n; i++) {
            out.add(random.nextInt(100) == 0 ? random.nextLong() : random.nextInt(50));
          }
      }
    }
    return out.toArray();
  }

  /** The sub-encodings and widths of the RLE v2 runs in an uncompressed stream, as "TYPE:width". */
  static TreeSet<String> runKinds(byte[] stream) {
    TreeSet<String> kinds = new TreeSet<>();
    int p = 0;
    while (p < stream.length) {
      int first = stream[p] & 0xFF;
      int type = first >>> 6;
      if (type == 0) {
        int bytes = ((first >>> 3) & 7) + 1;
        kinds.add("SHORT_REPEAT:" + bytes * 8);
        p += 1 + bytes;
        continue;
      }
      int code = (first >>> 1) & 0x1F;
      int length = (((first & 1) << 8) | (stream[p + 1] & 0xFF)) + 1;
      if (type == 1) {
        int width = RleV2IntegerDecoder.decodeWidth(code);
        kinds.add("DIRECT:" + width);
        p += 2 + (length * width + 7) / 8;
      } else if (type == 2) {
        int width = RleV2IntegerDecoder.decodeWidth(code);
        int third = stream[p + 2] & 0xFF;
        int fourth = stream[p + 3] & 0xFF;
        int patchWidth = RleV2IntegerDecoder.decodeWidth(third & 0x1F);
        int gapWidth = (fourth >>> 5) + 1;
        int patches = fourth & 0x1F;
        kinds.add("PATCHED_BASE:" + width);
        kinds.add("PATCH:" + patchWidth + "+" + gapWidth);
        int entry = RleV2IntegerDecoder.closestFixedBits(patchWidth + gapWidth);
        int patchStart = p + 4 + (third >>> 5) + 1 + (length * width + 7) / 8;
        if (gapWidth == 8) {
          // a gap of 255 with a patch of 0: a long gap
          for (int k = 0; k < patches; k++) {
            long e = BitUnpacker.bitwise(stream, patchStart, (long) k * entry, entry);
            if (e >>> patchWidth == 255 && (e & ((1L << patchWidth) - 1)) == 0) {
              kinds.add("PATCH_GAP_CHAIN");
            }
          }
        }
        p = patchStart + (patches * entry + 7) / 8;
      } else {
        int width = code == 0 ? 0 : RleV2IntegerDecoder.decodeWidth(code);
        kinds.add("DELTA:" + width);
        p += 2;
        while (stream[p++] < 0) {}
        while (stream[p++] < 0) {}
        if (width != 0) {
          p += ((length - 2) * width + 7) / 8;
        }
      }
    }
    return kinds;
  }
}
