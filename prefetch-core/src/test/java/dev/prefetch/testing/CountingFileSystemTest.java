package dev.prefetch.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class CountingFileSystemTest {

  private static final int LENGTH = 1000;

  @TempDir java.nio.file.Path dir;

  private java.nio.file.Path local;
  private Path path;
  private FileSystem fs;
  private byte[] content;

  @BeforeEach
  void writeFile() throws IOException {
    content = new byte[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      content[i] = (byte) (i * 31);
    }
    local = dir.resolve("data.bin");
    Files.write(local, content);
    path = CountingFileSystem.path(local);
    fs = path.getFileSystem(CountingFileSystem.configuration());
  }

  @Test
  void pathOfALocalFileHasTheCountingSchemeAndResolvesToThisFileSystem() throws IOException {
    assertThat(path.toUri().getScheme()).isEqualTo(CountingFileSystem.SCHEME);
    assertThat(path.toUri().getPath()).isEqualTo(local.toAbsolutePath().toString());
    assertThat(fs).isInstanceOf(CountingFileSystem.class);
    assertThat(fs.getUri().getScheme()).isEqualTo(CountingFileSystem.SCHEME);
  }

  @Test
  void fileStatusIsRealAndCounted() throws IOException {
    FileStatus status = fs.getFileStatus(path);
    boolean exists = fs.exists(path);

    assertThat(exists).isTrue();
    assertThat(status.getLen()).isEqualTo(LENGTH);
    assertThat(status.isFile()).isTrue();
    assertThat(status.getModificationTime()).isEqualTo(Files.getLastModifiedTime(local).toMillis());
    assertThat(status.getPath().toUri().getScheme()).isEqualTo(CountingFileSystem.SCHEME);
    assertThat(CountingFileSystem.counts(local).fileStatusCalls()).isEqualTo(2);
  }

  @Test
  void sequentialReadsAreCountedWithTheirBytes() throws IOException {
    byte[] head = new byte[100];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(head); // sequential, one or more read calls
      int single = in.read();
      assertThat(single).isEqualTo(content[100] & 0xff);
    }

    assertThat(head).isEqualTo(java.util.Arrays.copyOf(content, 100));
    CountingFileSystem.Counts counts = CountingFileSystem.counts(local);
    assertThat(counts.opens()).isEqualTo(1);
    assertThat(counts.closes()).isEqualTo(1);
    assertThat(counts.readCalls()).isGreaterThanOrEqualTo(2);
    assertThat(counts.positionedReads()).isZero();
    assertThat(counts.bytesRead()).isEqualTo(101);
  }

  @Test
  void positionedReadsAreCountedOncePerCallAndLeaveThePositionAlone() throws IOException {
    byte[] tail = new byte[50];
    byte[] middle = new byte[10];
    try (FSDataInputStream in = fs.open(path)) {
      in.seek(7);
      in.readFully(LENGTH - 50, tail);
      int n = in.read(500, middle, 0, middle.length);
      assertThat(n).isEqualTo(10);
      assertThat(in.getPos()).isEqualTo(7);
      assertThat(in.read()).isEqualTo(content[7] & 0xff);
    }

    assertThat(tail).isEqualTo(java.util.Arrays.copyOfRange(content, LENGTH - 50, LENGTH));
    assertThat(middle).isEqualTo(java.util.Arrays.copyOfRange(content, 500, 510));
    CountingFileSystem.Counts counts = CountingFileSystem.counts(local);
    assertThat(counts.positionedReads()).isEqualTo(2);
    assertThat(counts.readCalls()).isEqualTo(1);
    assertThat(counts.bytesRead()).isEqualTo(61);
  }

  @Test
  void readingPastTheEndFailsAsTheLocalFileSystemDoes() throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      assertThatThrownBy(() -> in.readFully(LENGTH - 5, new byte[10]))
          .isInstanceOf(java.io.EOFException.class);
      in.seek(LENGTH);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void streamsStaySeekableAndPositionedReadableAndReportTheSameByteBufferAbilities()
      throws IOException {
    FileSystem plain = FileSystem.getLocal(new Configuration()).getRaw();
    try (FSDataInputStream counted = fs.open(path);
        FSDataInputStream raw = plain.open(new Path(local.toUri()))) {
      assertThat(counted.getWrappedStream())
          .isInstanceOf(Seekable.class)
          .isInstanceOf(PositionedReadable.class);
      for (String capability :
          List.of(StreamCapabilities.READBYTEBUFFER, StreamCapabilities.PREADBYTEBUFFER)) {
        assertThat(counted.hasCapability(capability))
            .as(capability)
            .isEqualTo(raw.hasCapability(capability));
      }
      // parquet-hadoop falls back to instanceof on the wrapped stream when no capability is set.
      assertThat(counted.getWrappedStream() instanceof ByteBufferReadable)
          .isEqualTo(innermost(raw) instanceof ByteBufferReadable);
      assertThat(counted.getWrappedStream() instanceof ByteBufferPositionedReadable)
          .isEqualTo(innermost(raw) instanceof ByteBufferPositionedReadable);
      if (!raw.hasCapability(StreamCapabilities.READBYTEBUFFER)) {
        // Then the wrapper fails the same way, so readers fall back to byte arrays.
        assertThatThrownBy(() -> raw.read(ByteBuffer.allocate(4)))
            .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> counted.read(ByteBuffer.allocate(4)))
            .isInstanceOf(UnsupportedOperationException.class);
      }
    }
  }

  private static java.io.InputStream innermost(FSDataInputStream in) {
    java.io.InputStream wrapped = in.getWrappedStream();
    return wrapped instanceof FSDataInputStream inner ? innermost(inner) : wrapped;
  }

  @Test
  void openFileBuilderIsCountedLikeOpen() throws Exception {
    byte[] first = new byte[4];
    try (FSDataInputStream in = fs.openFile(path).build().get(10, TimeUnit.SECONDS)) {
      in.readFully(0, first);
    }

    CountingFileSystem.Counts counts = CountingFileSystem.counts(local);
    assertThat(counts.opens()).isEqualTo(1);
    assertThat(counts.closes()).isEqualTo(1);
    assertThat(counts.bytesRead()).isEqualTo(4);
  }

  @Test
  void closeIsCountedOnceAndUnclosedStreamsShow() throws IOException {
    FSDataInputStream leaked = fs.open(path);
    FSDataInputStream closedTwice = fs.open(path);
    closedTwice.close();
    closedTwice.close();

    CountingFileSystem.Counts counts = CountingFileSystem.counts(local);
    assertThat(counts.opens()).isEqualTo(2);
    assertThat(counts.closes()).isEqualTo(1);
    assertThat(counts.openStreams()).isEqualTo(1);

    leaked.close();
    assertThat(CountingFileSystem.counts(local).openStreams()).isZero();
  }

  @Test
  void countersArePerFileAndResettable() throws IOException {
    java.nio.file.Path otherLocal = dir.resolve("other.bin");
    Files.write(otherLocal, new byte[10]);
    fs.open(CountingFileSystem.path(otherLocal)).close();
    fs.open(path).close();

    assertThat(CountingFileSystem.counts(otherLocal).opens()).isEqualTo(1);
    assertThat(CountingFileSystem.counts(path).opens()).isEqualTo(1);

    CountingFileSystem.reset(local);
    assertThat(CountingFileSystem.counts(local)).isEqualTo(CountingFileSystem.Counts.ZERO);
    assertThat(CountingFileSystem.counts(otherLocal).opens()).isEqualTo(1);
    assertThat(CountingFileSystem.counts(new Path(otherLocal.toUri())).opens()).isEqualTo(1);
    assertThatThrownBy(() -> CountingFileSystem.counts(new Path("relative/x.bin")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void filesWrittenThroughTheCountingSchemeAreReadableLocally() throws IOException {
    Path written = CountingFileSystem.path(dir.resolve("written.bin"));
    try (var out = fs.create(written)) {
      out.write(new byte[] {1, 2, 3});
    }

    assertThat(Files.readAllBytes(dir.resolve("written.bin"))).containsExactly(1, 2, 3);
    assertThat(fs.listStatus(new Path(CountingFileSystem.path(dir).toString())))
        .extracting(s -> s.getPath().getName())
        .contains("data.bin", "written.bin");
  }

  @Test
  @Timeout(30)
  void concurrentReadersAreAllCounted() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<byte[]>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t * 100;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  byte[] buffer = new byte[100];
                  try (FSDataInputStream in = fs.open(path)) {
                    in.readFully(offset, buffer);
                    in.getFileDescriptor();
                  }
                  fs.getFileStatus(path);
                  return buffer;
                }));
      }
      start.countDown();
      for (int t = 0; t < threads; t++) {
        assertThat(results.get(t).get())
            .isEqualTo(java.util.Arrays.copyOfRange(content, t * 100, t * 100 + 100));
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    CountingFileSystem.Counts counts = CountingFileSystem.counts(local);
    assertThat(counts.opens()).isEqualTo(threads);
    assertThat(counts.closes()).isEqualTo(threads);
    assertThat(counts.positionedReads()).isEqualTo(threads);
    assertThat(counts.bytesRead()).isEqualTo(threads * 100L);
    assertThat(counts.fileStatusCalls()).isEqualTo(threads);
  }
}
