package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Storage that fails under a scan (a read error in a row group in the middle, a file that shrinks
 * after the footer was read, an early close while producers still read), through {@link
 * PrefetchArrowReader} and through its C Data stream: the error names the file, and once the reader
 * or the stream is closed, the allocator holds nothing, every file stream is closed and no producer
 * thread is alive. Files are read through {@link FaultInjectingFileSystem}.
 */
@Timeout(60)
class ArrowFaultsTest extends AllocatorTest {

  @TempDir static Path dir;
  static Path file;
  static long length;
  static long middleStart;
  static long middleEnd;

  @BeforeAll
  static void writeFile() throws IOException {
    file = ArrowTestFiles.writeParquet(dir.resolve("faulty.parquet"), 6000, 17);
    length = Files.size(file);
    // A row group in the middle: the footer reader's speculative tail read stays clear of it.
    long[] middle = ArrowTestFiles.rowGroupSpan(file, 1, 2);
    middleStart = middle[0];
    middleEnd = middle[1];
  }

  @BeforeEach
  void resetFaults() {
    FaultInjectingFileSystem.reset();
  }

  @AfterEach
  void clearFaults() {
    FaultInjectingFileSystem.reset();
  }

  private static ReadContext context() {
    return ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
  }

  private static ReadOptions options(int parallelism) {
    return ReadOptions.builder()
        .batchSize(256)
        .parallelism(parallelism)
        .prefetchEnabled(parallelism > 1)
        .property("prefetch.min-read-bytes", "0")
        // By parts: the faults aim at reads of row groups, which a small file read whole
        // would make at open.
        .wholeFileBytes(0)
        .build();
  }

  private PrefetchArrowReader open(int parallelism, ReadContext context) throws IOException {
    return PrefetchArrowReader.open(
        DataFile.of(FaultInjectingFileSystem.path(file)), options(parallelism), context, allocator);
  }

  /**
   * Reads {@code reader} through the C Data stream: {@code intactBatches} load, then a read to the
   * end fails naming the file.
   */
  private void assertTheCStreamFailsNamingTheFile(PrefetchArrowReader reader, int intactBatches)
      throws IOException {
    throughTheCStream(
        reader,
        imported -> {
          for (int i = 0; i < intactBatches; i++) {
            assertThat(imported.loadNextBatch()).isTrue();
          }
          assertThatThrownBy(() -> readToTheEnd(imported))
              .isInstanceOf(IOException.class)
              .hasMessageContaining("faulty.parquet");
        });
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aReadErrorMidScanNamesTheFileAndTheClosedReaderLeavesNothing(int parallelism)
      throws IOException {
    FaultInjectingFileSystem.faults(file).failReadsTouching(middleStart, middleEnd);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      if (parallelism == 1) {
        // In file order, the first row groups read before the failing one.
        assertThat(reader.loadNextBatch()).isTrue();
      }
      assertThatThrownBy(() -> readToTheEnd(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("faulty.parquet")
          .hasRootCauseInstanceOf(FaultInjectingFileSystem.InjectedFault.class);
      reader.close();
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aReadErrorMidScanCrossesTheCStreamAndItsReleaseLeavesNothing(int parallelism)
      throws IOException {
    FaultInjectingFileSystem.faults(file).failReadsTouching(middleStart, middleEnd);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      assertTheCStreamFailsNamingTheFile(reader, parallelism == 1 ? 1 : 0);
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aFileTruncatedAfterItsFooterWasReadFailsNamingItAndLeavesNothing(int parallelism)
      throws IOException {
    // Producers start reading at open: reads of the middle row group wait until the file shrank.
    FaultInjectingFileSystem.Faults faults =
        FaultInjectingFileSystem.faults(file).blockReadsTouching(middleStart, middleEnd);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      // From now on the file ends where its middle row group begins.
      faults.truncateTo(middleStart).release();
      assertTheCStreamFailsNamingTheFile(reader, 0);
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void closingTheReaderAfterTheFirstBatchLeavesNothing(int parallelism) throws IOException {
    // Slow reads keep the producers busy when the reader closes.
    FaultInjectingFileSystem.faults(file).delayMillis(5);
    try (ReadContext context = context();
        PrefetchArrowReader reader = open(parallelism, context)) {
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(reader.getVectorSchemaRoot().getRowCount()).isEqualTo(256);
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void releasingTheCStreamAfterTheFirstBatchLeavesNothing(int parallelism) throws IOException {
    FaultInjectingFileSystem.faults(file).delayMillis(5);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      throughTheCStream(
          reader,
          imported -> {
            assertThat(imported.loadNextBatch()).isTrue();
            assertThat(imported.getVectorSchemaRoot().getRowCount()).isEqualTo(256);
          });
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aFileTruncatedBeforeOpenFailsToOpenNamingItAndLeavesNothing(int parallelism)
      throws IOException {
    FaultInjectingFileSystem.faults(file).truncateTo(length - 100);
    try (ReadContext context = context()) {
      assertThatThrownBy(() -> open(parallelism, context))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("faulty.parquet");
    }
    assertNothingLeft();
  }
}
