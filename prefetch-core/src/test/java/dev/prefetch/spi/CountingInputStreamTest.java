package dev.prefetch.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testing.CountingFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountingInputStreamTest {

  private static final int CHUNK = CountingInputStream.LOCAL_READ_CHUNK_BYTES;

  @TempDir java.nio.file.Path dir;

  private byte[] write(String name, int length) throws IOException {
    byte[] bytes = new byte[length];
    new Random(length).nextBytes(bytes);
    Files.write(dir.resolve(name), bytes);
    return bytes;
  }

  private FSDataInputStream open(
      String name, ScanCounters counters, String extra, boolean local, List<Object> closed)
      throws IOException {
    Path path = CountingFileSystem.path(dir.resolve(name));
    FileSystem fs = path.getFileSystem(CountingFileSystem.configuration());
    return new FSDataInputStream(
        new CountingInputStream(fs.open(path), counters, extra, local, closed::add));
  }

  @Test
  void everyBulkReadIsOneRequestAndEveryByteIsCounted() throws IOException {
    byte[] bytes = write("small.bin", 10_000);
    ScanCounters counters = new ScanCounters();
    List<Object> closed = new ArrayList<>();
    try (FSDataInputStream in = open("small.bin", counters, "tailBytes", true, closed)) {
      byte[] head = new byte[100];
      in.readFully(0, head);
      assertThat(head).isEqualTo(java.util.Arrays.copyOf(bytes, 100));
      in.seek(5000);
      assertThat(in.read()).isEqualTo(bytes[5000] & 0xff);
      byte[] some = new byte[1000];
      int n = in.read(some, 0, some.length);
      assertThat(n).isPositive();
      assertThat(some[0]).isEqualTo(bytes[5001]);
      assertThat(counters.get(ScanCounters.BYTES_READ)).isEqualTo(100 + 1 + n);
      assertThat(counters.get("tailBytes")).isEqualTo(100 + 1 + n);
      // the single byte counts as read but is no request
      assertThat(counters.get(ScanCounters.READ_REQUESTS)).isEqualTo(2);
    }
    assertThat(closed).hasSize(1);
  }

  @Test
  void localPositionedReadsAreCutIntoBoundedCallsButCountOnce() throws IOException {
    byte[] bytes = write("large.bin", 2 * CHUNK + 12_345);
    ScanCounters counters = new ScanCounters();
    CountingFileSystem.reset(dir.resolve("large.bin"));
    try (FSDataInputStream in = open("large.bin", counters, null, true, new ArrayList<>())) {
      byte[] all = new byte[bytes.length];
      in.readFully(0, all);
      assertThat(all).isEqualTo(bytes);
    }
    assertThat(CountingFileSystem.counts(dir.resolve("large.bin")).positionedReads()).isEqualTo(3);
    assertThat(counters.get(ScanCounters.READ_REQUESTS)).isEqualTo(1);
    assertThat(counters.get(ScanCounters.BYTES_READ)).isEqualTo(bytes.length);
  }

  @Test
  void readsOfOtherFilesystemsAreNotCut() throws IOException {
    byte[] bytes = write("remote.bin", CHUNK + 1);
    CountingFileSystem.reset(dir.resolve("remote.bin"));
    try (FSDataInputStream in =
        open("remote.bin", new ScanCounters(), null, false, new ArrayList<>())) {
      byte[] all = new byte[bytes.length];
      in.readFully(0, all);
      assertThat(all).isEqualTo(bytes);
    }
    assertThat(CountingFileSystem.counts(dir.resolve("remote.bin")).positionedReads()).isEqualTo(1);
  }

  @Test
  void aLongLocalSequentialReadReturnsAtMostOneChunk() throws IOException {
    write("seq.bin", CHUNK + 100);
    try (FSDataInputStream in =
        open("seq.bin", new ScanCounters(), null, true, new ArrayList<>())) {
      byte[] all = new byte[CHUNK + 100];
      assertThat(in.read(all, 0, all.length)).isLessThanOrEqualTo(CHUNK);
      ByteBuffer buffer = ByteBuffer.allocate(CHUNK + 100);
      in.seek(0);
      assertThat(in.read(buffer)).isLessThanOrEqualTo(CHUNK);
    }
  }

  @Test
  void bufferReadsWorkOverAStreamWithoutThem() throws IOException {
    byte[] bytes = write("buffers.bin", 5000);
    ScanCounters counters = new ScanCounters();
    try (FSDataInputStream in = open("buffers.bin", counters, null, true, new ArrayList<>())) {
      assertThat(in.hasCapability(StreamCapabilities.READBYTEBUFFER)).isTrue();
      ByteBuffer heap = ByteBuffer.allocate(1000);
      while (heap.hasRemaining()) {
        assertThat(in.read(heap)).isPositive();
      }
      ByteBuffer direct = ByteBuffer.allocateDirect(1000);
      while (direct.hasRemaining()) {
        assertThat(in.read(direct)).isPositive();
      }
      heap.flip();
      direct.flip();
      for (int i = 0; i < 1000; i++) {
        assertThat(heap.get(i)).isEqualTo(bytes[i]);
        assertThat(direct.get(i)).isEqualTo(bytes[1000 + i]);
      }
    }
    assertThat(counters.get(ScanCounters.BYTES_READ)).isEqualTo(2000);
  }

  @Test
  void vectoredReadsCountEachRange() throws Exception {
    byte[] bytes = write("vectored.bin", 10_000);
    ScanCounters counters = new ScanCounters();
    try (FSDataInputStream in = open("vectored.bin", counters, null, true, new ArrayList<>())) {
      List<FileRange> ranges =
          List.of(FileRange.createFileRange(0, 100), FileRange.createFileRange(5000, 200));
      in.readVectored(ranges, ByteBuffer::allocate);
      ByteBuffer second = ranges.get(1).getData().get();
      assertThat(second.get(0)).isEqualTo(bytes[5000]);
    }
    assertThat(counters.get(ScanCounters.READ_REQUESTS)).isEqualTo(2);
    assertThat(counters.get(ScanCounters.BYTES_READ)).isEqualTo(300);
  }

  @Test
  void onlyTheLocalSchemeIsLocal() throws IOException {
    assertThat(CountingInputStream.isLocal(FileSystem.getLocal(new Configuration()))).isTrue();
    Path counting = CountingFileSystem.path(dir.resolve("x"));
    assertThat(
            CountingInputStream.isLocal(counting.getFileSystem(CountingFileSystem.configuration())))
        .isFalse();
  }
}
