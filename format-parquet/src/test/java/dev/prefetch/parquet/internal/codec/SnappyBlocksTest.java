package dev.prefetch.parquet.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.xerial.snappy.Snappy;

/**
 * {@link SnappyBlocks} against snappy-java, the reference: blocks snappy-java compresses decompress
 * to the original bytes and to what snappy-java decompresses; blocks written tag by tag reach the
 * kinds snappy-java's compressor never writes (4-byte offsets, literals with 3 and 4 length bytes);
 * corrupt blocks fail with an {@link IOException} and never write outside the output.
 */
class SnappyBlocksTest {

  /** The byte every test array is filled with around the output, to catch writes past it. */
  private static final byte FENCE = 0x5A;

  static Stream<Arguments> inputs() {
    Random random = new Random(34);
    List<Arguments> cases = new ArrayList<>();
    for (int size : new int[] {0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 69, 70, 79, 80, 81, 200, 4096}) {
      cases.add(Arguments.of("random " + size, randomBytes(random, size, 256)));
      cases.add(Arguments.of("four symbols " + size, randomBytes(random, size, 4)));
      cases.add(Arguments.of("one byte " + size, filled(size, (byte) 7)));
    }
    cases.add(Arguments.of("int64 keys", longs(random, 30_000, 200_000, 1)));
    cases.add(Arguments.of("repeated int64 keys", longs(random, 30_000, 1L << 40, 5)));
    cases.add(Arguments.of("int32 small", ints(random, 50_000, 10)));
    cases.add(Arguments.of("text", text(random, 200_000)));
    cases.add(Arguments.of("random 1 MiB", randomBytes(random, 1 << 20, 256)));
    cases.add(Arguments.of("zeros 1 MiB", new byte[1 << 20]));
    for (int period = 1; period <= 20; period++) {
      cases.add(Arguments.of("period " + period, periodic(random, 10_000, period)));
    }
    cases.add(Arguments.of("runs and noise", runsAndNoise(random, 300_000)));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void aBlockSnappyJavaCompressedDecompressesToTheOriginalBytes(String name, byte[] original)
      throws IOException {
    byte[] block = Snappy.compress(original);

    assertThat(decompressFenced(block, 0, block.length, original.length, 0)).isEqualTo(original);
    assertThat(Snappy.uncompress(block)).isEqualTo(original);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inputs")
  void aBlockInTheMiddleOfItsArraysDecompressesInPlace(String name, byte[] original)
      throws IOException {
    byte[] block = Snappy.compress(original);
    byte[] chunk = new byte[block.length + 37];
    Arrays.fill(chunk, (byte) 0x33);
    System.arraycopy(block, 0, chunk, 11, block.length);

    assertThat(decompressFenced(chunk, 11, block.length, original.length, 13)).isEqualTo(original);
  }

  @Test
  void theDeclaredLengthIsReadFromTheBlock() throws IOException {
    byte[] block = Snappy.compress(new byte[300_000]);

    assertThat(SnappyBlocks.uncompressedLength(block, 0, block.length)).isEqualTo(300_000);
  }

  @Test
  void everyKindOfTagWrittenByHandDecompresses() throws IOException {
    Random random = new Random(5);
    Blocks blocks = new Blocks();
    byte[] head = randomBytes(random, 70_000, 256);
    blocks.literal(head, 4); // 3 length bytes
    blocks.copy(65_536 + 123, 64, 3); // a 4-byte offset
    blocks.copy(3, 40, 2); // a pattern of 3 at a 2-byte offset
    blocks.copy(9, 11, 1); // 1-byte offset
    blocks.copy(2_047, 4, 1); // the largest 11-bit offset
    blocks.literal(randomBytes(random, 61, 256), 1); // 1 length byte
    blocks.literal(randomBytes(random, 300, 256), 2);
    blocks.literal(randomBytes(random, 5, 256), 4); // a short literal written long-form
    blocks.copy(1, 64, 3);
    for (int i = 0; i < 200; i++) { // the fast loop and the tail see every kind
      blocks.copy(1 + random.nextInt(2_000), 1 + random.nextInt(64), 2 + random.nextInt(2));
      int literal = 1 + random.nextInt(70);
      blocks.literal(randomBytes(random, literal, 256), literal > 60 ? 1 : 0);
      blocks.copy(8 + random.nextInt(100), 4 + random.nextInt(8), 1);
    }
    byte[] block = blocks.block();

    byte[] expected = Snappy.uncompress(block);
    assertThat(expected).hasSize(blocks.length());
    assertThat(decompressFenced(block, 0, block.length, expected.length, 5)).isEqualTo(expected);
  }

  @Test
  void aLengthOtherThanTheOneExpectedFails() throws IOException {
    byte[] block = Snappy.compress(new byte[1000]);

    assertThatThrownBy(() -> decompressFenced(block, 0, block.length, 999, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("declares 1000 uncompressed bytes, expected 999");
  }

  @Test
  void aCopyBeforeTheStartOfTheOutputFails() {
    Blocks blocks = new Blocks();
    blocks.literal(new byte[] {1, 2, 3}, 0);
    blocks.copy(4, 10, 2);

    assertThatThrownBy(() -> decompressFenced(blocks.block(), 0, blocks.block().length, 13, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("SNAPPY copy at offset 4 after 3 bytes of output");
  }

  @Test
  void aCopyAtOffsetZeroFails() {
    Blocks blocks = new Blocks();
    blocks.literal(new byte[100], 1);
    blocks.copy(0, 10, 2);
    blocks.literal(new byte[100], 1);

    assertThatThrownBy(() -> decompressFenced(blocks.block(), 0, blocks.block().length, 210, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("offset 0");
  }

  @Test
  void aLiteralLongerThanTheBlockFails() {
    Blocks blocks = new Blocks();
    blocks.literal(new byte[10], 0);
    byte[] block = Arrays.copyOf(blocks.block(), blocks.block().length - 3);

    assertThatThrownBy(() -> decompressFenced(block, 0, block.length, 10, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("SNAPPY literal of 10 bytes with 7 left in the block");
  }

  @Test
  void aBlockThatWritesPastItsDeclaredLengthFails() {
    Blocks blocks = new Blocks();
    blocks.literal(new byte[200], 1);
    blocks.copy(100, 64, 2);
    byte[] block = blocks.block(150); // declares fewer bytes than its tags write

    assertThatThrownBy(() -> decompressFenced(block, 0, block.length, 150, 0))
        .isInstanceOf(IOException.class);
  }

  @Test
  void aBlockThatEndsBeforeItsDeclaredLengthFails() {
    Blocks blocks = new Blocks();
    blocks.literal(new byte[200], 1);
    byte[] block = blocks.block(500);

    assertThatThrownBy(() -> decompressFenced(block, 0, block.length, 500, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ends after 200 of its 500 bytes");
  }

  @Test
  void aLengthVarintThatNeverEndsFails() {
    byte[] block = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};

    assertThatThrownBy(() -> SnappyBlocks.uncompressedLength(block, 0, block.length))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("longer than 5 bytes");
    assertThatThrownBy(() -> SnappyBlocks.uncompressedLength(block, 0, 2))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ends inside its length");
  }

  @Test
  void aLengthAboveTheLargestArrayFails() {
    byte[] block = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};

    assertThatThrownBy(() -> SnappyBlocks.uncompressedLength(block, 0, block.length))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("declares 4294967295 uncompressed bytes");
  }

  @Test
  void everyTruncationOfABlockFailsWithAnIoException() throws IOException {
    Random random = new Random(11);
    byte[] original = runsAndNoise(random, 3_000);
    byte[] block = Snappy.compress(original);
    for (int cut = 0; cut < block.length; cut++) {
      int length = cut;
      assertThatThrownBy(() -> decompressFenced(block, 0, length, original.length, 3))
          .as("cut at %d of %d", cut, block.length)
          .isInstanceOf(IOException.class);
    }
  }

  /**
   * Damaged blocks: each either fails with an IOException or decompresses to its declared length,
   * as snappy-java's own decompressor does then, and nothing outside the output changes.
   */
  @Test
  void aDamagedBlockFailsOrDecompressesAsSnappyJavaDoesNeverPastItsOutput() throws IOException {
    Random random = new Random(23);
    byte[] original = runsAndNoise(random, 20_000);
    byte[] block = Snappy.compress(original);
    int failed = 0;
    for (int trial = 0; trial < 3_000; trial++) {
      byte[] damaged = block.clone();
      int flips = 1 + random.nextInt(4);
      for (int f = 0; f < flips; f++) {
        int at = 1 + random.nextInt(damaged.length - 1); // keep the length: the output is sized
        damaged[at] = (byte) random.nextInt(256);
      }
      byte[] ours;
      try {
        ours = decompressFenced(damaged, 0, damaged.length, original.length, 7);
      } catch (IOException e) {
        failed++;
        continue;
      }
      byte[] reference = new byte[original.length];
      int written = Snappy.uncompress(damaged, 0, damaged.length, reference, 0);
      assertThat(written).isEqualTo(original.length);
      assertThat(ours).as("trial %d", trial).isEqualTo(reference);
    }
    assertThat(failed).isPositive();
  }

  @Test
  void anInputRangeOutsideItsArrayIsACallersMistake() {
    assertThatThrownBy(() -> SnappyBlocks.decompress(new byte[10], 5, 6, new byte[10], 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("input range");
    assertThatThrownBy(() -> SnappyBlocks.decompress(new byte[10], 0, 6, new byte[10], 5, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output range");
  }

  /**
   * Decompresses into an array with {@code at} fence bytes before the output and 100 after, checks
   * the fences, and returns the output.
   */
  private static byte[] decompressFenced(byte[] in, int offset, int length, int outLength, int at)
      throws IOException {
    byte[] out = new byte[at + outLength + 100];
    Arrays.fill(out, FENCE);
    try {
      SnappyBlocks.decompress(in, offset, length, out, at, outLength);
    } finally {
      for (int i = 0; i < at; i++) {
        assertThat(out[i]).as("byte %d before the output", i).isEqualTo(FENCE);
      }
      for (int i = at + outLength; i < out.length; i++) {
        assertThat(out[i]).as("byte %d past the output", i - at - outLength).isEqualTo(FENCE);
      }
    }
    return Arrays.copyOfRange(out, at, at + outLength);
  }

  private static byte[] randomBytes(Random random, int size, int symbols) {
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) random.nextInt(symbols);
    }
    return bytes;
  }

  private static byte[] filled(int size, byte value) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, value);
    return bytes;
  }

  /** Little-endian int64 values below {@code bound}, each repeated up to {@code repeat} times. */
  private static byte[] longs(Random random, int count, long bound, int repeat) {
    ByteBuffer buffer = ByteBuffer.allocate(count * 8).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      long value = (long) (random.nextDouble() * bound);
      for (int r = 1 + random.nextInt(repeat); r > 0 && buffer.hasRemaining(); r--) {
        buffer.putLong(value);
      }
    }
    return buffer.array();
  }

  private static byte[] ints(Random random, int count, int bound) {
    ByteBuffer buffer = ByteBuffer.allocate(count * 4).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      buffer.putInt(random.nextInt(bound));
    }
    return buffer.array();
  }

  private static byte[] text(Random random, int size) {
    String[] words = {"furiously ", "ironic ", "deposits ", "sleep ", "carefully ", "a ", "the "};
    StringBuilder text = new StringBuilder();
    while (text.length() < size) {
      text.append(words[random.nextInt(words.length)]);
    }
    return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] periodic(Random random, int size, int period) {
    byte[] pattern = randomBytes(random, period, 256);
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i++) {
      bytes[i] = pattern[i % period];
    }
    return bytes;
  }

  /** Runs of one byte, short repeats and noise mixed: every kind of tag snappy-java writes. */
  private static byte[] runsAndNoise(Random random, int size) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (out.size() < size) {
      switch (random.nextInt(3)) {
        case 0 -> out.writeBytes(filled(1 + random.nextInt(100), (byte) random.nextInt(256)));
        case 1 -> out.writeBytes(periodic(random, 1 + random.nextInt(200), 1 + random.nextInt(12)));
        default -> out.writeBytes(randomBytes(random, 1 + random.nextInt(80), 256));
      }
    }
    return Arrays.copyOf(out.toByteArray(), size);
  }

  /** A snappy block written tag by tag, for tags snappy-java's compressor does not write. */
  private static final class Blocks {
    private final ByteArrayOutputStream tags = new ByteArrayOutputStream();
    private int length;

    /** A literal; {@code lengthBytes} 0 puts its length in the tag (up to 60 bytes). */
    void literal(byte[] bytes, int lengthBytes) {
      if (lengthBytes == 0) {
        if (bytes.length > 60) {
          throw new IllegalArgumentException(
              "a literal of " + bytes.length + " needs length bytes");
        }
        tags.write((bytes.length - 1) << 2);
      } else {
        tags.write((59 + lengthBytes) << 2);
        for (int i = 0; i < lengthBytes; i++) {
          tags.write((bytes.length - 1) >>> (8 * i));
        }
      }
      tags.writeBytes(bytes);
      length += bytes.length;
    }

    /** A copy of {@code kind} 1 (11-bit offset, 4-11 bytes), 2 (16-bit) or 3 (32-bit). */
    void copy(int offset, int bytes, int kind) {
      if (kind == 1) {
        tags.write(1 | (bytes - 4) << 2 | (offset >>> 8) << 5);
        tags.write(offset);
      } else {
        tags.write(kind | (bytes - 1) << 2);
        for (int i = 0; i < (kind == 2 ? 2 : 4); i++) {
          tags.write(offset >>> (8 * i));
        }
      }
      length += bytes;
    }

    int length() {
      return length;
    }

    byte[] block() {
      return block(length);
    }

    /** The tags behind a length varint of {@code declared}. */
    byte[] block(int declared) {
      ByteArrayOutputStream block = new ByteArrayOutputStream();
      int v = declared;
      while ((v & ~0x7F) != 0) {
        block.write((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      block.write(v);
      block.writeBytes(tags.toByteArray());
      return block.toByteArray();
    }
  }
}
