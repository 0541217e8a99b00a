package dev.prefetch.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.it.Format;
import dev.prefetch.it.Scans;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A small Parquet file is read whole, in one request, at its first stream ({@code
 * read.whole-file-bytes}): a fault in that request fails the read naming the file, a file cut short
 * is a corrupt file, a read that hangs is left behind by close within its bound, and a stream of
 * small files read on producers keeps every file's rows in order; no stream or producer thread is
 * left in any case.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WholeFileFaultsTest {

  @TempDir static Path dir;
  static Path file;
  static List<Path> parts = new ArrayList<>();

  @BeforeAll
  static void writeFiles() throws IOException {
    file = Format.PARQUET.write(Files.createDirectories(dir.resolve("one")), 6_000);
    for (int i = 0; i < 3; i++) {
      parts.add(Format.PARQUET.write(Files.createDirectories(dir.resolve("part-" + i)), 2_000));
    }
  }

  @AfterEach
  void nothingLeft() {
    FaultInjectingFileSystem.reset();
    ReaderThreads.assertNoneAlive();
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  private static ReadContext context() {
    return ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
  }

  private static ReadOptions whole(int parallelism) {
    return Scans.prefetching(parallelism)
        .wholeFileBytes(ReadOptions.DEFAULT_WHOLE_FILE_BYTES)
        .build();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 3})
  void aFaultInTheWholeReadFailsTheReadNamingTheFile(int parallelism) throws IOException {
    assertThat(Files.size(file)).isLessThan(ReadOptions.DEFAULT_WHOLE_FILE_BYTES);
    long middle = Files.size(file) / 2;
    FaultInjectingFileSystem.faults(file).failReadsTouching(middle, middle + 1);
    Throwable thrown;
    try (ReadContext context = context()) {
      thrown =
          catchThrowable(
              () -> {
                try (BatchReader reader =
                    Readers.open(
                        DataFile.of(FaultInjectingFileSystem.path(file)),
                        whole(parallelism),
                        context)) {
                  while (reader.next() != null) {
                    // drain
                  }
                }
              });
    }
    assertThat(thrown).isInstanceOf(ReadException.class).hasMessageContaining(file.toString());
    assertThat(thrown).hasRootCauseInstanceOf(FaultInjectingFileSystem.InjectedFault.class);
  }

  @Test
  void aFileCutShortIsACorruptFileNamingIt() throws IOException {
    FaultInjectingFileSystem.faults(file).truncateTo(Files.size(file) - 100);
    Throwable thrown;
    try (ReadContext context = context()) {
      thrown =
          catchThrowable(
              () ->
                  Readers.open(DataFile.of(FaultInjectingFileSystem.path(file)), whole(2), context)
                      .close());
    }
    assertThat(thrown)
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("PAR1");
  }

  @Test
  void closeLeavesAWholeReadThatHangsBehindWithinItsBound() throws Exception {
    List<DataFile> files = new ArrayList<>();
    for (Path part : parts) {
      files.add(DataFile.of(FaultInjectingFileSystem.path(part)));
    }
    // The second file's whole read hangs; the first is read, then close comes.
    long size = Files.size(parts.get(1));
    FaultInjectingFileSystem.faults(parts.get(1)).hangReadsTouching(size / 2, size / 2 + 1);
    try (ReadContext context = context()) {
      BatchReader reader = Readers.open(files, whole(2), context);
      assertThat(reader.next()).isNotNull();
      long start = System.nanoTime();
      reader.close();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
    } finally {
      FaultInjectingFileSystem.faults(parts.get(1)).release();
    }
    // Released, the producer left behind ends: its read returns and nothing waits for it.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ReaderThreads.live().isEmpty()) {
      assertThat(System.nanoTime())
          .as("left behind: %s", ReaderThreads.live())
          .isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void aStreamOfSmallFilesReadWholeEqualsTheirReadByParts(int parallelism) throws IOException {
    List<DataFile> files = new ArrayList<>();
    for (Path part : parts) {
      files.add(DataFile.of(FaultInjectingFileSystem.path(part)));
    }
    try (ReadContext context = context()) {
      Scans.Result byParts;
      Scans.Result whole;
      try (BatchReader reader =
          Readers.open(files, Scans.prefetching(parallelism).build(), context)) {
        byParts = Scans.drain(reader, new ArrayList<>());
      }
      try (BatchReader reader = Readers.open(files, whole(parallelism), context)) {
        whole = Scans.drain(reader, new ArrayList<>());
      }
      assertThat(whole.batches()).isEqualTo(byParts.batches());
    }
  }
}
