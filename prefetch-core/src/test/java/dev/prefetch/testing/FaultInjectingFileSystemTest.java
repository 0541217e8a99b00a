package dev.prefetch.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.testing.FaultInjectingFileSystem.InjectedFault;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class FaultInjectingFileSystemTest {

  private static final int SIZE = 10_000;

  @TempDir java.nio.file.Path dir;

  private java.nio.file.Path local;
  private Path path;
  private FileSystem fs;
  private byte[] content;

  @BeforeEach
  void setUp() throws IOException {
    FaultInjectingFileSystem.reset();
    content = new byte[SIZE];
    for (int i = 0; i < SIZE; i++) {
      content[i] = (byte) (i * 31 + 7);
    }
    local = dir.resolve("data.bin");
    Files.write(local, content);
    path = FaultInjectingFileSystem.path(local);
    fs = path.getFileSystem(FaultInjectingFileSystem.configuration());
  }

  @AfterEach
  void tearDown() {
    FaultInjectingFileSystem.reset();
  }

  @Test
  void withoutFaultsReadsTheLocalFileAndCountsOpensAndCloses() throws IOException {
    assertThat(fs).isInstanceOf(FaultInjectingFileSystem.class);
    assertThat(fs.getFileStatus(path).getLen()).isEqualTo(SIZE);
    assertThat(fs.getFileStatus(path).getPath().toUri().getScheme()).isEqualTo("faulty");
    byte[] all = new byte[SIZE];
    try (FSDataInputStream in = fs.open(path)) {
      assertThat(in.getWrappedStream())
          .isInstanceOf(Seekable.class)
          .isInstanceOf(PositionedReadable.class);
      in.readFully(all);
      assertThat(FaultInjectingFileSystem.faults(local).openStreams()).isEqualTo(1);
    }
    assertThat(all).isEqualTo(content);
    assertThat(FaultInjectingFileSystem.faults(local).opens()).isEqualTo(1);
    assertThat(FaultInjectingFileSystem.faults(local).closes()).isEqualTo(1);
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  @Test
  void positionedReadsAndSeeksReturnTheRightBytes() throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      byte[] part = new byte[100];
      in.readFully(5000, part);
      assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(content, 5000, 5100));
      in.seek(9000);
      assertThat(in.read()).isEqualTo(content[9000] & 0xff);
      assertThat(in.getPos()).isEqualTo(9001);
    }
  }

  @Test
  void theKthReadFailsAndTheOthersDoNot() throws IOException {
    FaultInjectingFileSystem.faults(local).failReadNumber(3);
    try (FSDataInputStream in = fs.open(path)) {
      byte[] buffer = new byte[10];
      in.readFully(0, buffer);
      in.readFully(10, buffer);
      assertThatThrownBy(() -> in.readFully(20, buffer))
          .isInstanceOf(InjectedFault.class)
          .hasMessageContaining("read #3");
      in.readFully(30, buffer);
    }
    assertThat(FaultInjectingFileSystem.faults(local).failuresInjected()).isEqualTo(1);
  }

  @Test
  void readsTouchingAFailingRangeFailAndOthersSucceed() throws IOException {
    FaultInjectingFileSystem.faults(local).failReadsTouching(4000, 4100);
    try (FSDataInputStream in = fs.open(path)) {
      byte[] buffer = new byte[100];
      in.readFully(3900, buffer);
      in.readFully(4100, buffer);
      assertThatThrownBy(() -> in.readFully(3950, buffer))
          .isInstanceOf(InjectedFault.class)
          .hasMessageContaining("[4000, 4100)");
      in.seek(4099);
      assertThatThrownBy(() -> in.read()).isInstanceOf(InjectedFault.class);
    }
  }

  @Test
  void shortReadsReturnFewerBytesButReadFullyStillGetsThemAll() throws IOException {
    FaultInjectingFileSystem.faults(local).shortReads(7);
    try (FSDataInputStream in = fs.open(path)) {
      byte[] buffer = new byte[100];
      assertThat(in.read(buffer, 0, 100)).isEqualTo(7);
      assertThat(in.read(200L, buffer, 0, 100)).isEqualTo(7);
      in.readFully(1000, buffer);
      assertThat(buffer).isEqualTo(java.util.Arrays.copyOfRange(content, 1000, 1100));
    }
    assertThat(FaultInjectingFileSystem.faults(local).reads()).isGreaterThanOrEqualTo(2 + 15);
  }

  @Test
  void aTruncatedFileShowsItsShorterLengthAndEndsThere() throws IOException {
    FaultInjectingFileSystem.faults(local).truncateTo(1000);
    assertThat(fs.getFileStatus(path).getLen()).isEqualTo(1000);
    try (FSDataInputStream in = fs.open(path)) {
      byte[] buffer = new byte[100];
      in.readFully(900, buffer);
      assertThat(in.read(950L, buffer, 0, 100)).isEqualTo(50);
      assertThat(in.read(1000L, buffer, 0, 100)).isEqualTo(-1);
      assertThatThrownBy(() -> in.readFully(950, buffer)).isInstanceOf(EOFException.class);
      assertThatThrownBy(() -> in.seek(1001)).isInstanceOf(EOFException.class);
    }
  }

  @Test
  void aDelayedReadEndsWithInterruptedIoExceptionWhenInterrupted() throws Exception {
    FaultInjectingFileSystem.faults(local).delayMillis(60_000);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flagKept = new AtomicReference<>();
    CountDownLatch opened = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> {
              try (FSDataInputStream in = fs.open(path)) {
                opened.countDown();
                in.readFully(0, new byte[10]);
              } catch (Throwable t) {
                thrown.set(t);
                flagKept.set(Thread.currentThread().isInterrupted());
              }
            });
    reader.start();
    assertThat(opened.await(10, TimeUnit.SECONDS)).isTrue();
    while (FaultInjectingFileSystem.faults(local).reads() == 0) {
      Thread.onSpinWait();
    }
    reader.interrupt();
    reader.join(10_000);
    assertThat(reader.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
    assertThat(flagKept.get()).isTrue();
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  @Test
  void aBlockedReadWaitsUntilReleased() throws Exception {
    FaultInjectingFileSystem.Faults faults =
        FaultInjectingFileSystem.faults(local).blockReadsTouching(0, 10);
    AtomicReference<byte[]> read = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try (FSDataInputStream in = fs.open(path)) {
                byte[] buffer = new byte[10];
                in.readFully(0, buffer);
                read.set(buffer);
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    reader.start();
    while (faults.blockedReads() == 0) {
      Thread.onSpinWait();
    }
    assertThat(read.get()).isNull();
    faults.release();
    reader.join(10_000);
    assertThat(read.get()).isEqualTo(java.util.Arrays.copyOf(content, 10));
  }

  @Test
  void aFailingCloseStillReleasesAndCountsTheStream() throws IOException {
    FaultInjectingFileSystem.faults(local).failOnClose();
    FSDataInputStream in = fs.open(path);
    assertThatThrownBy(in::close).isInstanceOf(InjectedFault.class);
    FaultInjectingFileSystem.assertAllStreamsClosed();
    in.close(); // idempotent: counted once
    assertThat(FaultInjectingFileSystem.faults(local).closes()).isEqualTo(1);
  }

  @Test
  void anUnclosedStreamIsReported() throws IOException {
    FSDataInputStream in = fs.open(path);
    assertThatThrownBy(FaultInjectingFileSystem::assertAllStreamsClosed)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("data.bin=1");
    in.close();
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  @Test
  void openFileBuilderGoesThroughTheFaults() throws Exception {
    FaultInjectingFileSystem.faults(local).failReadNumber(1);
    try (FSDataInputStream in = fs.openFile(path).build().get()) {
      assertThatThrownBy(() -> in.readFully(0, new byte[10])).isInstanceOf(InjectedFault.class);
    }
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  @Test
  void aMissingFileIsFileNotFound() {
    Path missing = FaultInjectingFileSystem.path(dir.resolve("missing.bin"));
    assertThatThrownBy(() -> fs.open(missing)).isInstanceOf(java.io.FileNotFoundException.class);
    assertThatThrownBy(() -> fs.getFileStatus(missing))
        .isInstanceOf(java.io.FileNotFoundException.class);
  }
}
