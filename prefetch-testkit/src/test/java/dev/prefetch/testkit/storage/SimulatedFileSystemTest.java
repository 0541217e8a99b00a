package dev.prefetch.testkit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SimulatedFileSystemTest {

  @TempDir Path dir;

  private Path file(int bytes) throws IOException {
    Path f = dir.resolve("data.bin");
    byte[] data = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      data[i] = (byte) i;
    }
    Files.write(f, data);
    return f;
  }

  private static FileSystem fs(long latencyMs, double mbps) throws IOException {
    Configuration conf = new Configuration();
    SimulatedFileSystem.configure(conf, latencyMs, mbps);
    return SimulatedFileSystem.pathOf(Path.of("/")).getFileSystem(conf);
  }

  @Test
  @Timeout(30)
  void everyPositionedReadAndEverySeekPaysTheLatency() throws IOException {
    Path local = file(4096);
    org.apache.hadoop.fs.Path path = SimulatedFileSystem.pathOf(local);
    try (FileSystem fs = fs(40, 0);
        FSDataInputStream in = fs.open(path)) {
      byte[] buffer = new byte[16];
      long start = System.nanoTime();
      in.readFully(100, buffer);
      in.readFully(2000, buffer);
      in.seek(3000);
      in.readFully(buffer);
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(elapsedMs).isGreaterThanOrEqualTo(3 * 40);
      assertThat(buffer[0]).isEqualTo((byte) 3000);
    }
  }

  @Test
  @Timeout(30)
  void aVectoredReadSendsItsRangesAsConcurrentRequestsEightAtATime() throws Exception {
    Path local = file(1 << 16);
    try (FileSystem fs = fs(100, 0);
        FSDataInputStream in = fs.open(SimulatedFileSystem.pathOf(local))) {
      java.util.List<org.apache.hadoop.fs.FileRange> ranges = new java.util.ArrayList<>();
      for (int i = 15; i >= 0; i--) { // out of order: served sorted
        ranges.add(org.apache.hadoop.fs.FileRange.createFileRange(i * 4000L + 7, 100));
      }
      long start = System.nanoTime();
      in.readVectored(ranges, java.nio.ByteBuffer::allocate);
      for (org.apache.hadoop.fs.FileRange range : ranges) {
        java.nio.ByteBuffer data = range.getData().get();
        assertThat(data.remaining()).isEqualTo(100);
        assertThat(data.get(data.position())).isEqualTo((byte) range.getOffset());
      }
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      // 16 requests, 8 in flight: two rounds of latency, not sixteen.
      assertThat(elapsedMs).isGreaterThanOrEqualTo(2 * 100).isLessThan(12 * 100);
    }
  }

  @Test
  @Timeout(30)
  void aVectoredReadReturnsBeforeItsRangesArriveAndACloseFailsThoseInFlight() throws Exception {
    Path local = file(1 << 16);
    try (FileSystem fs = fs(2_000, 0)) {
      FSDataInputStream in = fs.open(SimulatedFileSystem.pathOf(local));
      org.apache.hadoop.fs.FileRange range =
          org.apache.hadoop.fs.FileRange.createFileRange(4000L, 100);
      long start = System.nanoTime();
      in.readVectored(java.util.List.of(range), java.nio.ByteBuffer::allocate);
      long issueMs = (System.nanoTime() - start) / 1_000_000;
      // As S3A's: issued, not awaited; the range arrives after the 2 s latency.
      assertThat(issueMs).isLessThan(1_000);
      assertThat(range.getData()).isNotDone();

      in.close();
      assertThatThrownBy(() -> range.getData().get())
          .hasCauseInstanceOf(IOException.class)
          .hasMessageContaining("stream closed");
    }
  }

  @Test
  @Timeout(30)
  void aStreamTransfersNoFasterThanItsBandwidth() throws IOException {
    Path local = file(1 << 20);
    try (FileSystem fs = fs(0, 4);
        FSDataInputStream in = fs.open(SimulatedFileSystem.pathOf(local))) {
      byte[] all = new byte[1 << 20];
      long start = System.nanoTime();
      in.readFully(0, all);
      long elapsedMs = (System.nanoTime() - start) / 1_000_000;
      // 1 MiB at 4 MiB/s takes at least 250 ms.
      assertThat(elapsedMs).isGreaterThanOrEqualTo(240);
      assertThat(all[12345]).isEqualTo((byte) 12345);
    }
  }

  @Test
  @Timeout(30)
  void statusAndListingKeepTheSimulatedScheme() throws IOException {
    Path local = file(10);
    try (FileSystem fs = fs(0, 0)) {
      org.apache.hadoop.fs.Path path = SimulatedFileSystem.pathOf(local);
      assertThat(fs.getFileStatus(path).getLen()).isEqualTo(10);
      assertThat(fs.getFileStatus(path).getPath().toUri().getScheme()).isEqualTo("simulated");
      assertThat(fs.listStatus(SimulatedFileSystem.pathOf(dir))).hasSize(1);
      assertThat(fs.exists(SimulatedFileSystem.pathOf(dir.resolve("missing")))).isFalse();
    }
  }

  @Test
  @Timeout(30)
  void aReaderWaitingForStorageIsInterruptible() throws Exception {
    Path local = file(64);
    try (FileSystem fs = fs(60_000, 0);
        FSDataInputStream in = fs.open(SimulatedFileSystem.pathOf(local))) {
      WaitingRead read = WaitingRead.start(in);
      read.thread().interrupt();
      assertThat(read.failure()).isInstanceOf(InterruptedIOException.class);
    }
  }

  @Test
  @Timeout(30)
  void closingTheStreamWakesAReaderWaitingForStorage() throws Exception {
    Path local = file(64);
    try (FileSystem fs = fs(60_000, 0)) {
      FSDataInputStream in = fs.open(SimulatedFileSystem.pathOf(local));
      WaitingRead read = WaitingRead.start(in);
      in.close();
      assertThat(read.failure()).isInstanceOf(IOException.class).hasMessageContaining("closed");
    }
  }

  @Test
  void theSimulatedStorageIsReadOnly() throws IOException {
    try (FileSystem fs = fs(0, 0)) {
      assertThatThrownBy(() -> fs.create(SimulatedFileSystem.pathOf(dir.resolve("new"))))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("read-only");
    }
  }

  /** A thread reading the first 8 bytes of a stream, started and given time to reach storage. */
  private record WaitingRead(
      Thread thread, CountDownLatch done, AtomicReference<Throwable> thrown) {

    static WaitingRead start(FSDataInputStream in) throws InterruptedException {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      CountDownLatch done = new CountDownLatch(1);
      Thread reader =
          new Thread(
              () -> {
                try {
                  in.readFully(0, new byte[8]);
                } catch (Throwable t) {
                  thrown.set(t);
                } finally {
                  done.countDown();
                }
              });
      reader.start();
      Thread.sleep(100);
      return new WaitingRead(reader, done, thrown);
    }

    /** What the read threw, once it has ended (within 5 seconds). */
    Throwable failure() throws InterruptedException {
      assertThat(done.await(5, TimeUnit.SECONDS)).as("the read ended").isTrue();
      return thrown.get();
    }
  }
}
