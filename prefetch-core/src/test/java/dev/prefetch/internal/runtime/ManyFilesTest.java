package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read of many small files, one range each: the prefetch decision weighs the whole list, and
 * producers plan files ahead of the claims instead of waiting for each other's plans.
 */
@Timeout(60)
class ManyFilesTest {

  private static final long BYTES_PER_FILE = 64 << 10;

  @AfterEach
  void nothingLeaks() {
    SyntheticFormat.assertNothingLeaks();
  }

  private static List<DataFile> smallFiles(String tag, int count, int rows) {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      files.add(
          SyntheticFormat.register(
              tag + "-" + i,
              SyntheticFormat.Spec.of(List.of(rows)).withBytesPerRange(BYTES_PER_FILE)));
    }
    return files;
  }

  @Test
  void manySmallFilesPrefetchWithTheConfiguredProducersByTheFirstFilesEstimate() throws Exception {
    List<DataFile> files = smallFiles("small", 200, 7);
    // each file alone is far below the default threshold of 10 MiB; the 200 together are above
    ReadOptions options = ReadOptions.builder().parallelism(3).batchSize(5).build();
    try (BatchReader reader = Readers.open(files, options, ReadContext.defaults())) {
      assertThat(reader.metrics().prefetch()).isTrue();
      assertThat(reader.metrics().parallelism()).isEqualTo(3);
      assertThat(reader.metrics().decision())
          .contains("200 files, estimated " + 200 * BYTES_PER_FILE + " bytes")
          .contains("199 by the first file's estimate");
      List<Scans.Seen> seen = Scans.drain(reader);
      assertThat(seen).hasSize(400);
      for (int i = 0; i < seen.size(); i++) {
        Scans.Seen batch = seen.get(i);
        assertThat(batch.file()).isEqualTo("small-" + i / 2 + ".synth");
        assertThat(batch.firstRow()).isEqualTo(i % 2 == 0 ? 0 : 5);
        assertThat(batch.rows()[0]).isEqualTo(batch.firstRow());
      }
    }
    assertThat(ReaderThreads.live()).isEmpty();
  }

  @Test
  void splitsOfLaterFilesCountByTheirLength() throws Exception {
    List<DataFile> files = new ArrayList<>();
    files.add(smallFiles("split-first", 1, 7).get(0));
    for (DataFile file : smallFiles("split", 3, 7)) {
      files.add(DataFile.split(file.path(), 0, 4 << 20));
    }
    try (BatchReader reader =
        Readers.open(files, ReadOptions.builder().parallelism(2).build(), ReadContext.defaults())) {
      long estimate = BYTES_PER_FILE + 3 * (4L << 20);
      assertThat(reader.metrics().prefetch()).isTrue();
      assertThat(reader.metrics().decision())
          .contains("4 files, estimated " + estimate + " bytes")
          .contains("3 by their split length")
          .doesNotContain("first file's estimate");
      assertThat(Scans.drain(reader)).hasSize(4);
    }
  }

  @Test
  void aListBelowTheThresholdIsReadByTheSingleReaderAndSaysWhy() throws Exception {
    List<DataFile> files = smallFiles("below", 3, 7);
    try (BatchReader reader =
        Readers.open(files, ReadOptions.builder().parallelism(2).build(), ReadContext.defaults())) {
      assertThat(ReaderThreads.live()).isEmpty();
      assertThat(reader.metrics().prefetch()).isFalse();
      assertThat(reader.metrics().decision())
          .contains("3 files, estimated " + 3 * BYTES_PER_FILE + " bytes < prefetch.min-read-bytes")
          .contains("2 by the first file's estimate");
      assertThat(Scans.drain(reader)).hasSize(3);
    }
  }

  @Test
  void aProducerPlansTheNextFileWhileAnotherPlansTheOneBefore() throws Exception {
    List<DataFile> files = smallFiles("ahead", 4, 7);
    CountDownLatch thirdPlanned = new CountDownLatch(1);
    // File 1's plan finishes only once file 2 is planned: without planning ahead, the producer that
    // plans file 1 would wait here for the whole timeout while the other waited for file 1.
    SyntheticFormat.onPlan(
        "ahead-1",
        () -> {
          try {
            if (!thirdPlanned.await(20, TimeUnit.SECONDS)) {
              throw new IOException("file 2 was not planned while file 1 was");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
          }
        });
    SyntheticFormat.onPlan("ahead-2", thirdPlanned::countDown);
    long rows = 0;
    try (BatchReader reader =
        Readers.open(files, Scans.prefetching(2, 4, 5).build(), ReadContext.defaults())) {
      for (Scans.Seen batch : Scans.drain(reader)) {
        rows += batch.rowCount();
      }
    }
    assertThat(rows).isEqualTo(4 * 7);
  }
}
