package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.CountingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of at most {@code read.whole-file-bytes} is read in one request, footer and data together,
 * and every reader of it reads the bytes in memory; a larger file, or any file with the option at
 * 0, is read by parts. Counted through the counting filesystem, which sees every stream and byte
 * the reader asks storage for.
 */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class WholeFileReadsTest {

  @TempDir static Path dir;
  static List<Path> files = new ArrayList<>();

  @BeforeAll
  static void writeFiles() throws IOException {
    for (int f = 0; f < 4; f++) {
      int first = f * 5_000;
      files.add(
          ParquetTestFiles.write(
              dir.resolve("part-" + f + ".parquet"),
              CoalescedRequestsTest.SCHEMA,
              5_000,
              ParquetTestFiles.WriteSpec.defaults().codec(CompressionCodecName.SNAPPY),
              (i, g) -> CoalescedRequestsTest.fill(first + i, g)));
    }
  }

  /** A scan's checksum, and what storage served: streams opened, reads, bytes. */
  private record Scan(String checksum, long opens, long reads, long bytes) {}

  private static Scan scan(List<Path> local, ReadOptions options, ReadContext context)
      throws IOException {
    long opens = 0;
    long reads = 0;
    long bytes = 0;
    for (Path p : local) {
      CountingFileSystem.reset(p);
    }
    List<DataFile> data = new ArrayList<>();
    for (Path p : local) {
      data.add(DataFile.of(CountingFileSystem.path(p)));
    }
    String checksum;
    try (BatchReader reader = Readers.open(data, options, context)) {
      Checksum sum = new Checksum(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        sum.add(batch);
      }
      checksum = sum.value();
    }
    for (Path p : local) {
      CountingFileSystem.Counts counts = CountingFileSystem.counts(p);
      opens += counts.opens();
      reads += counts.readCalls() + counts.positionedReads();
      bytes += counts.bytesRead();
    }
    return new Scan(checksum, opens, reads, bytes);
  }

  private static ReadContext context() {
    return ReadContext.builder().configuration(CountingFileSystem.configuration()).build();
  }

  private static long sizes(List<Path> local) throws IOException {
    long total = 0;
    for (Path p : local) {
      total += Files.size(p);
    }
    return total;
  }

  @Test
  void aSmallFileIsReadInOneRequestOfItsWholeLength() throws IOException {
    try (ReadContext context = context()) {
      Scan whole =
          scan(files.subList(0, 1), ReadOptions.builder().minReadBytes(0).build(), context);
      Scan parts =
          scan(
              files.subList(0, 1),
              ReadOptions.builder().minReadBytes(0).wholeFileBytes(0).build(),
              context);

      assertThat(whole.checksum()).isEqualTo(parts.checksum());
      assertThat(whole.opens()).isEqualTo(1);
      assertThat(whole.bytes()).isEqualTo(Files.size(files.get(0)));
      assertThat(parts.opens()).as("the footer's stream and the reader's").isGreaterThan(1);
    }
  }

  @Test
  void aStreamOfSmallFilesOnProducersOpensEachFileOnce() throws IOException {
    try (ReadContext context = context()) {
      ReadOptions options = ReadOptions.builder().minReadBytes(0).parallelism(3).build();
      Scan whole = scan(files, options, context);
      Scan parts = scan(files, options.toBuilder().wholeFileBytes(0).build(), context);

      assertThat(whole.checksum()).isEqualTo(parts.checksum());
      assertThat(whole.opens()).isEqualTo(files.size());
      assertThat(whole.bytes()).isEqualTo(sizes(files));
    }
  }

  @Test
  void aFileAboveTheBoundIsReadByParts() throws IOException {
    try (ReadContext context = context()) {
      long size = Files.size(files.get(0));
      Scan below =
          scan(
              files.subList(0, 1),
              ReadOptions.builder().minReadBytes(0).wholeFileBytes(size - 1).build(),
              context);
      Scan at =
          scan(
              files.subList(0, 1),
              ReadOptions.builder().minReadBytes(0).wholeFileBytes(size).build(),
              context);

      assertThat(below.checksum()).isEqualTo(at.checksum());
      assertThat(below.opens()).isGreaterThan(1);
      assertThat(at.opens()).isEqualTo(1);
    }
  }

  @Test
  void withTheFooterCachedASmallFileIsStillOneRequest() throws IOException {
    Configuration conf = CountingFileSystem.configuration();
    try (ReadContext context =
        ReadContext.builder()
            .configuration(conf)
            .cache(MemoryCache.builder().maximumBytes(8 << 20).build())
            .build()) {
      ReadOptions options = ReadOptions.builder().minReadBytes(0).build();
      scan(files.subList(0, 1), options, context); // fills the cache
      Scan warm = scan(files.subList(0, 1), options, context);

      assertThat(warm.opens()).isEqualTo(1);
      assertThat(warm.bytes()).isEqualTo(Files.size(files.get(0)));
    }
  }
}
