package dev.prefetch.parquet;

import static org.apache.parquet.filter2.predicate.FilterApi.eq;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.lt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.parquet.internal.ParquetFormat;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Filters (row groups and pages), row-range selection and input splits. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(60)
class SelectionTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
      message selection {
        required int64 id;
        optional binary label (STRING);
        optional double score;
      }
      """);

  @TempDir static Path dir;

  /** 10 row groups of 1000 rows, pages of 100 rows. */
  static Path groups;

  static List<List<Object>> all;

  @BeforeAll
  static void writeFiles() throws IOException {
    groups = write("groups.parquet", 10_000, 1000);
    all = Rows.expected(groups);
  }

  /** Rows of exactly {@code rowsPerGroup} per row group (the writer flushes on row count). */
  static Path write(String name, int rows, int rowsPerGroup) throws IOException {
    Path file = dir.resolve(name);
    ParquetTestFiles.WriteSpec spec =
        ParquetTestFiles.WriteSpec.defaults()
            .codec(CompressionCodecName.UNCOMPRESSED)
            .dictionary(false)
            .pageRowLimit(100)
            .rowGroupBytes(rowsPerGroup * 30L);
    return ParquetTestFiles.write(file, SCHEMA, rows, spec, SelectionTest::fill);
  }

  static void fill(int i, Group g) {
    g.add("id", (long) i);
    if (i % 13 != 0) {
      g.add("label", "label-" + (i % 97));
    }
    g.add("score", i * 0.5);
  }

  /** By parts: the bytes a selection reads are what it measures (a small file is read whole). */
  private static ReadOptions.Builder options() {
    return ReadOptions.builder().minReadBytes(0).parallelism(4).batchSize(333).wholeFileBytes(0);
  }

  /** Our rows are the file's rows at the row indexes we report. */
  private static void assertRowsAtTheirIndexes(Rows.Scan scan) {
    for (int k = 0; k < scan.rows().size(); k++) {
      assertThat(scan.rows().get(k)).isEqualTo(all.get(Math.toIntExact(scan.rowIndexes().get(k))));
    }
  }

  @Test
  void aFilterPrunesWholeRowGroupsByStatistics() throws IOException {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(groups, options().filter(lt(longColumn("id"), 1500L)).build(), context)) {
      List<Long> ids = new ArrayList<>();
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int r = 0; r < batch.rowCount(); r++) {
          ids.add((Long) batch.column("id").getObject(r));
          assertThat(batch.firstRow() + r).isEqualTo(ids.get(ids.size() - 1));
        }
      }
      assertThat(ids).contains(0L, 1499L).allMatch(id -> id < 2000);
      assertThat(reader.metrics().counter("rowGroupsRead")).isEqualTo(2);
    }
    Rows.Scan scan =
        Rows.read(
            groups, options().filter(lt(longColumn("id"), 1500L)).build(), ReadContext.defaults());
    assertRowsAtTheirIndexes(scan);
  }

  @Test
  void aFilterPrunesPagesByColumnIndex() throws IOException {
    Path one = write("one-group.parquet", 5000, 1_000_000);
    List<List<Object>> expected = Rows.expected(one);
    long fullBytes;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(one, options().build(), context)) {
      while (reader.next() != null) {
        // drain
      }
      fullBytes = reader.metrics().bytesRead();
    }
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(
                one,
                options().filter(FilterCompat.get(eq(longColumn("id"), 4321L))).build(),
                context)) {
      List<Long> rows = new ArrayList<>();
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int r = 0; r < batch.rowCount(); r++) {
          assertThat(Rows.normalize(batch.column(0).getObject(r)))
              .isEqualTo(expected.get(Math.toIntExact(batch.firstRow() + r)).get(0));
          rows.add(batch.firstRow() + r);
        }
      }
      assertThat(rows).contains(4321L).hasSizeLessThanOrEqualTo(100);
      assertThat(reader.metrics().bytesRead()).isLessThan(fullBytes / 2);
    }
  }

  @Test
  void rowRangesAcrossRowGroupBoundariesReturnExactlyThoseRows() throws IOException {
    List<RowRange> ranges =
        List.of(new RowRange(500, 2500), new RowRange(6990, 7010), new RowRange(9999, 20_000));
    try (ReadContext context = ReadContext.defaults()) {
      Rows.Scan scan = Rows.read(groups, options().rowRanges(ranges).build(), context);
      List<Long> expectedIndexes = new ArrayList<>();
      for (RowRange range : ranges) {
        for (long r = range.start(); r < Math.min(range.end(), 10_000); r++) {
          expectedIndexes.add(r);
        }
      }
      assertThat(scan.rowIndexes()).containsExactlyElementsOf(expectedIndexes);
      assertRowsAtTheirIndexes(scan);
      try (var plan =
          new ParquetFormat()
              .plan(
                  DataFile.of(groups),
                  options().rowRanges(List.of(new RowRange(9999, 10_000))).build(),
                  RangeBudget.of(options().rowRanges(List.of(new RowRange(9999, 10_000))).build()),
                  context,
                  new ScanCounters())) {
        int last =
            org.apache.parquet.hadoop.ParquetFileReader.readFooter(
                        new org.apache.hadoop.conf.Configuration(),
                        new org.apache.hadoop.fs.Path(groups.toUri()))
                    .getBlocks()
                    .size()
                - 1;
        assertThat(plan.ranges())
            .singleElement()
            .extracting(r -> r.locator().toString())
            .asString()
            .startsWith("row group " + last + " rows ");
      }
    }
  }

  @Test
  void aSplitReadsTheRowGroupsWhoseMidpointItHolds() throws IOException {
    long length = Files.size(groups);
    List<Long> seen = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults()) {
      long cut = length / 3;
      for (long[] split : new long[][] {{0, cut}, {cut, length - cut}}) {
        try (BatchReader reader =
            Readers.open(
                DataFile.split(new org.apache.hadoop.fs.Path(groups.toUri()), split[0], split[1]),
                options().build(),
                context)) {
          List<Long> mine = new ArrayList<>();
          for (RecordBatch batch; (batch = reader.next()) != null; ) {
            for (int r = 0; r < batch.rowCount(); r++) {
              mine.add(batch.firstRow() + r);
            }
          }
          assertThat(mine).isNotEmpty().hasSizeLessThan(10_000);
          seen.addAll(mine);
        }
      }
    }
    List<Long> everyRow = new ArrayList<>();
    for (long r = 0; r < 10_000; r++) {
      everyRow.add(r);
    }
    assertThat(seen).containsExactlyElementsOf(everyRow);
  }

  @Test
  void theFooterIsReadOnceWhateverTheParallelism() throws IOException {
    for (int parallelism : new int[] {1, 2, 8}) {
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader =
              Readers.open(groups, options().parallelism(parallelism).build(), context)) {
        while (reader.next() != null) {
          // drain
        }
        assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
        assertThat(reader.metrics().prefetch())
            .isEqualTo(parallelism > 1 || reader.metrics().parallelism() > 0);
      }
    }
  }

  @Test
  void aFilterOfAnotherLibraryIsRejected() {
    assertThatThrownBy(
            () -> Readers.open(groups, options().filter("id < 3").build(), ReadContext.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("groups.parquet")
        .hasMessageContaining("FilterPredicate");
  }

  @Test
  void aFilterOnAColumnTheFileLacksTreatsItAsNullAndSelectsNothing() throws IOException {
    // parquet-hadoop's rule: a column missing from the file is all nulls, so "nope < 3" holds
    // for no row and every row group is pruned.
    Rows.Scan scan =
        Rows.read(
            groups, options().filter(lt(longColumn("nope"), 3L)).build(), ReadContext.defaults());
    assertThat(scan.rows()).isEmpty();
  }
}
