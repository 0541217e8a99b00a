package dev.prefetch.orc.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.testing.CountingLedger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.orc.CompressionKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streams written by orc-core's {@code OutStream} with each codec and block size, read back through
 * {@link StreamInput}: every byte, every way of reading, every position orc-core recorded; then
 * streams cut and corrupted in each way a block can be.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamInputTest {

  /** Block sizes: tiny (most values straddle blocks), small, and orc-core's default. */
  private static final int[] BLOCK_SIZES = {64, 1000, 256 << 10};

  static Stream<Arguments> codecsAndBlockSizes() {
    List<Arguments> all = new ArrayList<>();
    for (CompressionKind kind : CompressionKind.values()) {
      for (int size : BLOCK_SIZES) {
        all.add(Arguments.of(kind, size));
      }
    }
    return all.stream();
  }

  /** Bytes of mixed compressibility: runs, text, random, so blocks are compressed and original. */
  static byte[] mixedBytes(Random random, int length) {
    byte[] out = new byte[length];
    int p = 0;
    while (p < length) {
      int n = Math.min(length - p, 1 + random.nextInt(3000));
      switch (random.nextInt(3)) {
        case 0:
          Arrays.fill(out, p, p + n, (byte) random.nextInt());
          break;
        case 1:
          for (int i = 0; i < n; i++) {
            out[p + i] = (byte) ("orc stream layer ".charAt((p + i) % 17));
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

  /** A written stream of {@code data}, with a position recorded before each byte in {@code at}. */
  private static WrittenStream write(
      CompressionKind kind, int blockSize, byte[] data, int[] at, List<long[]> positions)
      throws IOException {
    WrittenStream stream = new WrittenStream(kind, blockSize);
    int p = 0;
    for (int mark : at) {
      stream.out().write(data, p, mark - p);
      WrittenStream.Position position = new WrittenStream.Position();
      stream.out().getPosition(position);
      positions.add(position.toArray());
      p = mark;
    }
    stream.out().write(data, p, data.length - p);
    stream.finish();
    return stream;
  }

  @ParameterizedTest(name = "{0}, blocks of {1}")
  @MethodSource("codecsAndBlockSizes")
  void readsBackEveryByteOrcCoreWroteEveryWay(CompressionKind kind, int blockSize)
      throws IOException {
    Random random = new Random(blockSize * 31L + kind.ordinal());
    byte[] data = mixedBytes(random, 300_000);
    WrittenStream written = write(kind, blockSize, data, new int[0], new ArrayList<>());
    byte[] bytes = written.bytes();
    try (DecompressionContext context = written.context()) {
      StreamInput all = context.open("all", bytes, 0, bytes.length);
      byte[] back = new byte[data.length];
      all.readFully(back, 0, back.length);
      assertThat(back).isEqualTo(data);
      assertThat(all.hasMore()).isFalse();
      assertThatThrownBy(() -> all.ensure(1)).isInstanceOf(CorruptStreamException.class);
      all.close();

      // the same stream behind other bytes in a larger array, read by random steps
      byte[] padded = new byte[bytes.length + 20];
      System.arraycopy(bytes, 0, padded, 7, bytes.length);
      StreamInput in = context.open("steps", padded, 7, bytes.length);
      int p = 0;
      while (p < data.length) {
        assertThat(in.maxRemainingBytes()).isGreaterThanOrEqualTo(data.length - p);
        int left = data.length - p;
        switch (random.nextInt(4)) {
          case 0:
            assertThat(in.readUnsignedByte()).isEqualTo(data[p] & 0xFF);
            p++;
            break;
          case 1:
            {
              int n = Math.min(left, 1 + random.nextInt(StreamInput.MAX_CONTIGUOUS_BYTES));
              in.ensure(n);
              assertThat(in.remaining()).isGreaterThanOrEqualTo(n);
              byte[] window = Arrays.copyOfRange(in.array(), in.position(), in.position() + n);
              assertThat(window).isEqualTo(Arrays.copyOfRange(data, p, p + n));
              in.position(in.position() + n);
              p += n;
              break;
            }
          case 2:
            {
              int n = Math.min(left, random.nextInt(20_000));
              in.skip(n);
              p += n;
              break;
            }
          default:
            {
              int n = Math.min(left, random.nextInt(5_000));
              byte[] chunk = new byte[n];
              in.readFully(chunk, 0, n);
              assertThat(chunk).isEqualTo(Arrays.copyOfRange(data, p, p + n));
              p += n;
            }
        }
      }
      assertThat(in.hasMore()).isFalse();
      assertThat(in.ensureUpTo(10)).isZero();
      in.close();
    }
  }

  @ParameterizedTest(name = "{0}, blocks of {1}")
  @MethodSource("codecsAndBlockSizes")
  void seeksToEveryPositionOrcCoreRecorded(CompressionKind kind, int blockSize) throws IOException {
    Random random = new Random(blockSize * 17L + kind.ordinal());
    byte[] data = mixedBytes(random, 100_000);
    int[] at = random.ints(200, 0, data.length + 1).sorted().toArray();
    List<long[]> positions = new ArrayList<>();
    byte[] bytes = write(kind, blockSize, data, at, positions).bytes();
    try (DecompressionContext context = new WrittenStream(kind, blockSize).context();
        StreamInput in = context.open("seek", bytes, 0, bytes.length)) {
      // in random order, so seeks go backwards, forwards and within a block
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < at.length; i++) {
        order.add(i);
      }
      java.util.Collections.shuffle(order, random);
      for (int i : order) {
        IndexPositions index = new IndexPositions(positions.get(i));
        in.seek(index);
        assertThat(index.remaining()).isZero();
        int n = Math.min(data.length - at[i], 300);
        byte[] read = new byte[n];
        in.readFully(read, 0, n);
        assertThat(read)
            .as("bytes at %d", at[i])
            .isEqualTo(Arrays.copyOfRange(data, at[i], at[i] + n));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE"},
      mode = EnumSource.Mode.EXCLUDE)
  void aBlockHeaderCutOffByTheStreamsEndIsCorrupt(CompressionKind kind) throws IOException {
    byte[] data = mixedBytes(new Random(1), 5_000);
    byte[] bytes = write(kind, 1000, data, new int[0], new ArrayList<>()).bytes();
    int firstBlock = 3 + blockLength(bytes, 0);
    byte[] cut = Arrays.copyOf(bytes, firstBlock + 2);
    assertThatThrownBy(() -> readAll(kind, 1000, cut))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("header at byte " + firstBlock + " is cut off");
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE"},
      mode = EnumSource.Mode.EXCLUDE)
  void aBlockPastTheStreamsEndIsCorrupt(CompressionKind kind) throws IOException {
    byte[] data = mixedBytes(new Random(2), 5_000);
    byte[] bytes = write(kind, 1000, data, new int[0], new ArrayList<>()).bytes();
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThatThrownBy(() -> readAll(kind, 1000, cut))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("past the stream's end");
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE"},
      mode = EnumSource.Mode.EXCLUDE)
  void aBlockLongerThanTheFilesBlockSizeIsCorrupt(CompressionKind kind) throws IOException {
    byte[] data = mixedBytes(new Random(3), 50_000);
    // written in blocks of 4096, read as if the file said 1000
    byte[] bytes = write(kind, 4096, data, new int[0], new ArrayList<>()).bytes();
    assertThatThrownBy(() -> readAll(kind, 1000, bytes))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("compression block size");
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE"},
      mode = EnumSource.Mode.EXCLUDE)
  void aBlockThatDecompressesPastTheBlockSizeIsCorrupt(CompressionKind kind) throws IOException {
    // 4096 zeros compress to far less than 1000 bytes, but decompress to more
    byte[] bytes = write(kind, 4096, new byte[4096], new int[0], new ArrayList<>()).bytes();
    assertThat(blockLength(bytes, 0)).isLessThan(1000);
    assertThat(bytes[0] & 1).as("compressed, not original").isZero();
    assertThatThrownBy(() -> readAll(kind, 1000, bytes))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("block at byte 0");
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE"},
      mode = EnumSource.Mode.EXCLUDE)
  void garbageInACompressedBlockFailsAsCorruptOrDecodesWithinTheBlock(CompressionKind kind) {
    Random random = new Random(kind.ordinal());
    for (int trial = 0; trial < 200; trial++) {
      int n = 1 + random.nextInt(300);
      byte[] bytes = new byte[3 + n];
      bytes[0] = (byte) (n << 1);
      bytes[1] = (byte) (n >>> 7);
      bytes[2] = (byte) (n >>> 15);
      for (int i = 3; i < bytes.length; i++) {
        bytes[i] = (byte) random.nextInt();
      }
      try {
        assertThat(readAll(kind, 1000, bytes)).isLessThanOrEqualTo(1000);
      } catch (CorruptStreamException expected) {
        assertThat(expected).hasMessageStartingWith("garbage: the compression block at byte 0");
      }
    }
  }

  @Test
  void zlibGarbageIsCorrupt() {
    byte[] bytes = {(byte) (4 << 1), 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertThatThrownBy(() -> readAll(CompressionKind.ZLIB, 1000, bytes))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("bad deflate data");
  }

  @Test
  void zstdGarbageIsCorrupt() {
    byte[] bytes = {(byte) (4 << 1), 0, 0, 1, 2, 3, 4};
    assertThatThrownBy(() -> readAll(CompressionKind.ZSTD, 1000, bytes))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("bad zstd data");
  }

  @Test
  void aSnappyBlockDeclaringMoreThanTheBlockSizeIsCorruptBeforeItIsDecompressed() {
    // a varint length of 2^21 and nothing else
    byte[] bytes = {(byte) (3 << 1), 0, 0, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
    bytes[0] = (byte) (4 << 1);
    assertThatThrownBy(() -> readAll(CompressionKind.SNAPPY, 1000, bytes))
        .isInstanceOf(CorruptStreamException.class)
        .hasMessageContaining("declares");
  }

  @ParameterizedTest
  @EnumSource(CompressionKind.class)
  void seeksOutsideTheStreamOrItsBlockAreCorrupt(CompressionKind kind) throws IOException {
    // the last block holds 500 bytes
    byte[] data = mixedBytes(new Random(4), 9_500);
    byte[] bytes = write(kind, 1000, data, new int[0], new ArrayList<>()).bytes();
    try (DecompressionContext context = new WrittenStream(kind, 1000).context();
        StreamInput in = context.open("seek", bytes, 0, bytes.length)) {
      if (kind == CompressionKind.NONE) {
        assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {bytes.length + 1})))
            .isInstanceOf(CorruptStreamException.class);
        in.seek(new IndexPositions(new long[] {bytes.length}));
        assertThat(in.hasMore()).isFalse();
        return;
      }
      assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {bytes.length + 1, 0})))
          .isInstanceOf(CorruptStreamException.class);
      assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {bytes.length, 1})))
          .isInstanceOf(CorruptStreamException.class);
      assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {0, 1001})))
          .isInstanceOf(CorruptStreamException.class);
      // the last block is shorter than the block size: a skip past its end is corrupt
      int last = 0;
      for (int p = 0; p < bytes.length; p += 3 + blockLength(bytes, p)) {
        last = p;
      }
      int lastLength = data.length % 1000 == 0 ? 1000 : data.length % 1000;
      long lastBlock = last;
      in.seek(new IndexPositions(new long[] {lastBlock, lastLength}));
      assertThat(in.hasMore()).isFalse();
      assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {lastBlock, lastLength + 1})))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("decompresses to " + lastLength);
      in.seek(new IndexPositions(new long[] {bytes.length, 0}));
      assertThat(in.hasMore()).isFalse();
      assertThatThrownBy(() -> in.seek(new IndexPositions(new long[] {0})))
          .isInstanceOf(CorruptStreamException.class)
          .hasMessageContaining("only 1 positions");
    }
  }

  @Test
  void buffersGoBackToThePoolAndTheLedgerIsEvenAfterClose() throws IOException {
    CountingLedger ledger = new CountingLedger();
    byte[] data = mixedBytes(new Random(5), 20_000);
    byte[] bytes = write(CompressionKind.ZLIB, 1000, data, new int[0], new ArrayList<>()).bytes();
    DecompressionContext context =
        new DecompressionContext(CompressionKind.ZLIB, 1000, ledger, 2L * (1000 + 8192));
    List<StreamInput> open = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      StreamInput in = context.open("s" + i, bytes, 0, bytes.length);
      in.skip(data.length);
      open.add(in);
    }
    BlockBuffers buffers = context.buffers();
    assertThat(buffers.lent()).isEqualTo(3);
    assertThat(ledger.held()).isEqualTo(3L * buffers.bufferBytes());
    open.forEach(StreamInput::close);
    assertThat(buffers.lent()).isZero();
    assertThat(buffers.free()).isEqualTo(2);
    assertThat(ledger.held()).isEqualTo(2L * buffers.bufferBytes());
    StreamInput again = context.open("again", bytes, 0, bytes.length);
    again.skip(data.length);
    assertThat(ledger.held()).isEqualTo(2L * buffers.bufferBytes());
    again.close();
    context.close();
    assertThat(ledger.held()).isZero();
    assertThatThrownBy(() -> again.readUnsignedByte()).isInstanceOf(IllegalStateException.class);
  }

  private static int blockLength(byte[] bytes, int at) {
    return ((bytes[at + 2] & 0xFF) << 15 | (bytes[at + 1] & 0xFF) << 7 | (bytes[at] & 0xFF) >>> 1);
  }

  /** Reads the whole stream; returns its decompressed length. */
  private static long readAll(CompressionKind kind, int blockSize, byte[] bytes)
      throws CorruptStreamException {
    try (DecompressionContext context = new WrittenStream(kind, blockSize).context();
        StreamInput in = context.open("garbage", bytes, 0, bytes.length)) {
      long n = 0;
      while (in.hasMore()) {
        n += in.remaining();
        in.position(in.limit());
      }
      return n;
    }
  }
}
