package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.CountingFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Off the local filesystem a producer reads its next row group ahead while it decodes the current
 * one: the chunks read ahead serve that row group's read, so every value is the same and no byte is
 * read twice. Counted through the counting filesystem, whose scheme is not the local one (its reads
 * are vectored, as an object store's).
 */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class ReadAheadTest {

  private static final int ROWS = 120_000;

  @TempDir static Path dir;

  /** Many small row groups: ranges are whole row groups. */
  static Path file;

  /** One row group: ranges are page slices of it. */
  static Path oneGroup;

  @BeforeAll
  static void writeFiles() throws IOException {
    file =
        ParquetTestFiles.write(
            dir.resolve("groups.parquet"),
            CoalescedRequestsTest.SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.SNAPPY)
                .rowGroupBytes(256 << 10),
            CoalescedRequestsTest::fill);
    oneGroup =
        ParquetTestFiles.write(
            dir.resolve("one-group.parquet"),
            CoalescedRequestsTest.SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.UNCOMPRESSED) // big enough to be cut into slices
                .rowGroupBytes(64L << 20)
                .pageRowLimit(2000),
            CoalescedRequestsTest::fill);
  }

  private record Scan(String checksum, long bytes, long rowGroups, long readAhead, long missed) {}

  private static Scan scan(ReadOptions options) throws IOException {
    return scan(file, options);
  }

  private static Scan scan(Path file, ReadOptions options) throws IOException {
    CountingFileSystem.reset(file);
    try (ReadContext context =
            ReadContext.builder().configuration(CountingFileSystem.configuration()).build();
        BatchReader reader =
            Readers.open(DataFile.of(CountingFileSystem.path(file)), options, context)) {
      Checksum checksum = new Checksum(reader.schema().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checksum.add(batch);
      }
      assertThat(checksum.rows()).isEqualTo(ROWS);
      assertThat(reader.metrics().rangesPlanned()).isGreaterThan(2);
      return new Scan(
          checksum.value(),
          CountingFileSystem.counts(file).bytesRead(),
          reader.metrics().counter("rowGroupsRead"),
          reader.metrics().counter("rowGroupsReadAhead"),
          reader.metrics().counter("readAheadMissedRanges"));
    }
  }

  @Test
  void rowGroupsReadAheadServeTheirRangesReadsWithoutReadingAnyByteTwice() throws IOException {
    ReadOptions base = ReadOptions.builder().minReadBytes(0).wholeFileBytes(0).build();
    Scan single = scan(base.toBuilder().prefetchEnabled(false).build());
    Scan ahead = scan(base.toBuilder().parallelism(2).build());

    assertThat(single.rowGroups()).isGreaterThanOrEqualTo(6);
    assertThat(single.readAhead()).as("the single reader reads nothing ahead").isZero();
    assertThat(ahead.checksum()).isEqualTo(single.checksum());
    assertThat(ahead.readAhead())
        .as("every producer's row groups after its first")
        .isGreaterThanOrEqualTo(ahead.rowGroups() - 2);
    assertThat(ahead.bytes()).isEqualTo(single.bytes());
  }

  @Test
  void aProjectionReadsAheadOnlyItsColumns() throws IOException {
    ReadOptions base =
        ReadOptions.builder().minReadBytes(0).wholeFileBytes(0).columns("id", "day").build();
    Scan single = scan(base.toBuilder().prefetchEnabled(false).build());
    Scan ahead = scan(base.toBuilder().parallelism(3).build());

    assertThat(ahead.checksum()).isEqualTo(single.checksum());
    assertThat(ahead.readAhead()).isPositive();
    assertThat(ahead.bytes()).isEqualTo(single.bytes());
  }

  /**
   * Slices of one row group: what each reads of the row group's metadata varies with which producer
   * reads which slice, so what is compared is that every byte range a slice read ahead asks for was
   * read ahead (none read again), and its values.
   */
  @Test
  void pageSlicesReadAheadEveryPageAndDictionaryTheyAskFor() throws IOException {
    ReadOptions base =
        ReadOptions.builder()
            .minReadBytes(0)
            .wholeFileBytes(0)
            .parallelism(2)
            .queueCapacity(2)
            .build();
    Scan without = scan(oneGroup, base.toBuilder().readAhead(false).build());
    Scan ahead = scan(oneGroup, base);

    assertThat(without.readAhead()).as("read-ahead off").isZero();
    assertThat(ahead.checksum()).isEqualTo(without.checksum());
    assertThat(ahead.readAhead()).isPositive();
    assertThat(ahead.missed()).as("ranges a slice read ahead had to read again").isZero();
  }
}
