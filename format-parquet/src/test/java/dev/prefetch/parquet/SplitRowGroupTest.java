package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.parquet.internal.ParquetFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.Checksum;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** One large row group read by several producers in page-aligned slices. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class SplitRowGroupTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
      message wide {
        required int64 id;
        optional double value;
        optional binary name (STRING);
      }
      """);
  static final int ROWS = 150_000;

  @TempDir static Path dir;
  static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    file =
        ParquetTestFiles.write(
            dir.resolve("one-group.parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.UNCOMPRESSED)
                .dictionary(false)
                .rowGroupBytes(256L << 20)
                .pageRowLimit(2000),
            (i, g) -> fill(i, g));
  }

  static void fill(int i, Group g) {
    g.add("id", (long) i);
    if (i % 11 != 0) {
      g.add("value", i * 1.25);
    }
    if (i % 7 != 0) {
      g.add("name", "name-" + (i % 1000));
    }
  }

  private static ReadOptions.Builder options() {
    return ReadOptions.builder().minReadBytes(0).batchSize(4096);
  }

  @Test
  void aLargeRowGroupIsCutIntoPageAlignedSlicesThatCoverEveryRowOnce() throws IOException {
    try (ReadContext context = ReadContext.defaults();
        FilePlan plan =
            new ParquetFormat()
                .plan(
                    DataFile.of(file),
                    options().parallelism(4).build(),
                    RangeBudget.of(options().parallelism(4).build()),
                    context,
                    new ScanCounters())) {
      List<ReadRange> ranges = plan.ranges();
      assertThat(ranges).hasSizeGreaterThanOrEqualTo(4);
      long next = 0;
      for (ReadRange range : ranges) {
        assertThat(range.firstRow()).isEqualTo(next);
        assertThat(range.locator()).isInstanceOf(RowGroupSlice.class);
        assertThat(range.locator().toString()).startsWith("row group 0 rows ");
        assertThat(pageStarts()).as("slices start on page boundaries").contains(range.firstRow());
        next = range.endRow();
      }
      assertThat(next).isEqualTo(ROWS);
    }
    try (ReadContext context = ReadContext.defaults();
        FilePlan plan =
            new ParquetFormat()
                .plan(
                    DataFile.of(file),
                    options()
                        .parallelism(4)
                        .property(ParquetOptions.SPLIT_ROW_GROUPS, "false")
                        .build(),
                    RangeBudget.of(
                        options()
                            .parallelism(4)
                            .property(ParquetOptions.SPLIT_ROW_GROUPS, "false")
                            .build()),
                    context,
                    new ScanCounters())) {
      assertThat(plan.ranges()).hasSize(1);
    }
  }

  @Test
  void rowGroupsLongerThanAProducersQueueAreSlicedSoLaterProducersCanWorkAhead()
      throws IOException {
    Path three =
        ParquetTestFiles.write(
            dir.resolve("three-groups.parquet"),
            SCHEMA,
            3 * ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.UNCOMPRESSED)
                .dictionary(false)
                .rowGroupBytes(3L << 20)
                .pageRowLimit(2000),
            (i, g) -> fill(i, g));
    int rowGroups;
    try (ReadContext context = ReadContext.defaults();
        FilePlan whole =
            new ParquetFormat()
                .plan(
                    DataFile.of(three),
                    options().prefetchEnabled(false).build(),
                    RangeBudget.of(options().prefetchEnabled(false).build()),
                    context,
                    new ScanCounters())) {
      rowGroups = whole.ranges().size();
    }
    assertThat(rowGroups).as("row groups of the file").isGreaterThanOrEqualTo(2);
    // Two producers, fewer than the row groups: only the queue (4 batches of 4,096 rows, far
    // shorter than a row group) asks for slices.
    try (ReadContext context = ReadContext.defaults();
        FilePlan plan =
            new ParquetFormat()
                .plan(
                    DataFile.of(three),
                    options().parallelism(2).queueCapacity(4).build(),
                    RangeBudget.of(options().parallelism(2).queueCapacity(4).build()),
                    context,
                    new ScanCounters())) {
      assertThat(plan.ranges()).hasSizeGreaterThan(rowGroups);
      long next = 0;
      for (ReadRange range : plan.ranges()) {
        assertThat(range.firstRow()).isEqualTo(next);
        next = range.endRow();
      }
      assertThat(next).isEqualTo(3L * ROWS);
    }
    // A queue that holds a whole row group needs no slices.
    try (ReadContext context = ReadContext.defaults();
        FilePlan plan =
            new ParquetFormat()
                .plan(
                    DataFile.of(three),
                    options().parallelism(2).queueCapacity(1024).build(),
                    RangeBudget.of(options().parallelism(2).queueCapacity(1024).build()),
                    context,
                    new ScanCounters())) {
      assertThat(plan.ranges()).hasSize(rowGroups);
    }
  }

  @Test
  void fourProducersOnSlicesReadWhatOneReaderReads() throws IOException {
    String single =
        scan(
            options()
                .prefetchEnabled(false)
                .property(ParquetOptions.SPLIT_ROW_GROUPS, "false")
                .build(),
            false);
    String sliced = scan(options().parallelism(4).build(), true);
    String cached =
        scan(
            options().parallelism(4).property(ParquetOptions.OFFSET_INDEX_CACHE, "true").build(),
            true);
    assertThat(sliced).isEqualTo(single);
    assertThat(cached).isEqualTo(single);
  }

  /** First rows of the pages of the file's largest column (the one slices align to). */
  private static java.util.Set<Long> pageStarts() throws IOException {
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()),
                new org.apache.hadoop.conf.Configuration()))) {
      var block = reader.getRowGroups().get(0);
      var largest = block.getColumns().get(0);
      for (var column : block.getColumns()) {
        if (column.getTotalSize() > largest.getTotalSize()) {
          largest = column;
        }
      }
      var index = reader.readOffsetIndex(largest);
      java.util.Set<Long> starts = new java.util.HashSet<>();
      for (int p = 0; p < index.getPageCount(); p++) {
        starts.add(index.getFirstRowIndex(p));
      }
      return starts;
    }
  }

  private static String scan(ReadOptions options, boolean expectPrefetch) throws IOException {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      Checksum checksum = new Checksum(reader.schema().size());
      long expectedRow = 0;
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        assertThat(batch.firstRow()).isEqualTo(expectedRow);
        expectedRow += batch.rowCount();
        checksum.add(batch);
      }
      assertThat(checksum.rows()).isEqualTo(ROWS);
      assertThat(reader.metrics().prefetch()).isEqualTo(expectPrefetch);
      assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
      return checksum.value();
    }
  }
}
