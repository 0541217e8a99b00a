package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every byte of Arrow memory goes back to the caller's allocator, however the scan ends. */
@Timeout(60)
class ArrowMemoryTest extends AllocatorTest {

  @TempDir static Path dir;
  static Path parquet;
  static Path corrupt;

  @BeforeAll
  static void writeFiles() throws IOException {
    parquet = ArrowTestFiles.writeParquet(dir.resolve("all.parquet"), 4000, 11);
    corrupt = dir.resolve("corrupt.parquet");
    Files.copy(parquet, corrupt);
    // Garbage over the pages in the second half of the file; the footer stays readable.
    long length = Files.size(corrupt);
    byte[] garbage = new byte[4096];
    new Random(3).nextBytes(garbage);
    try (RandomAccessFile f = new RandomAccessFile(corrupt.toFile(), "rw")) {
      for (long at = length / 2; at < length * 3 / 4; at += 3 * garbage.length) {
        f.seek(at);
        f.write(garbage);
      }
    }
  }

  private ReadOptions options() {
    return ReadOptions.builder()
        .batchSize(256)
        .parallelism(2)
        .property("prefetch.min-read-bytes", "0")
        .build();
  }

  @Test
  void closingAfterTheLastBatchLeavesTheAllocatorEmpty() throws IOException {
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options(), ReadContext.defaults(), allocator)) {
      while (reader.loadNextBatch()) {
        assertThat(allocator.getAllocatedMemory()).isPositive();
      }
      assertThat(reader.rows()).isEqualTo(4000);
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void closingBeforeTheEndLeavesTheAllocatorEmpty() throws IOException {
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options(), ReadContext.defaults(), allocator)) {
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(reader.loadNextBatch()).isTrue();
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void closingAfterAReadErrorLeavesTheAllocatorEmpty() throws IOException {
    // A single reader meets the corrupt pages in file order, after the intact first batches
    // (with producers, a later range may fail before the first batch is taken).
    ReadOptions single = ReadOptions.builder().batchSize(256).prefetchEnabled(false).build();
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(DataFile.of(corrupt), single, ReadContext.defaults(), allocator);
    assertThat(reader.loadNextBatch()).isTrue();
    // Reads until the corrupt pages.
    assertThatThrownBy(() -> readToTheEnd(reader))
        .isInstanceOf(ReadException.class)
        .hasMessageContaining("corrupt.parquet");
    assertThat(allocator.getAllocatedMemory()).isPositive();
    reader.close();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void closingAfterAProducersReadErrorLeavesTheAllocatorEmpty() throws IOException {
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(corrupt), options(), ReadContext.defaults(), allocator);
    // Reads until a producer's failure surfaces.
    assertThatThrownBy(() -> readToTheEnd(reader))
        .isInstanceOf(ReadException.class)
        .hasMessageContaining("corrupt.parquet");
    reader.close();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void aConsumerThatReleasesTheCStreamEarlyLeavesTheAllocatorEmpty() throws IOException {
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options(), ReadContext.defaults(), allocator);
    throughTheCStream(
        reader,
        imported -> {
          assertThat(imported.loadNextBatch()).isTrue();
          assertThat(imported.getVectorSchemaRoot().getRowCount()).isEqualTo(256);
        });
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void aCStreamReadToTheEndCarriesEveryRow() throws IOException {
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options(), ReadContext.defaults(), allocator);
    throughTheCStream(reader, imported -> assertThat(readToTheEnd(imported)).isEqualTo(4000));
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void aFailedOpenLeavesNothingBehind() {
    assertThatThrownBy(
            () ->
                PrefetchArrowReader.open(
                    DataFile.of(dir.resolve("missing.parquet")),
                    options(),
                    ReadContext.defaults(),
                    allocator))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("missing.parquet");
    assertThat(allocator.getAllocatedMemory()).isZero();
  }
}
