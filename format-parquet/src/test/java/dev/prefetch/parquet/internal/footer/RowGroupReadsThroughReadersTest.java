package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.parquet.internal.ParquetFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ScanCounters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads through {@link Readers#open} with {@code parquet.read.row-groups} and row ranges return
 * exactly parquet-hadoop's rows of those row groups, while decoding only their metadata.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RowGroupReadsThroughReadersTest {

  private static final int ROWS_PER_GROUP = 20;
  private static final WideFiles.Spec SPEC = new WideFiles.Spec(40, 8, ROWS_PER_GROUP, true, true);
  private static final List<String> COLUMNS = List.of("c0", "c2", "c17", "c38", "s");
  private static final List<String> LONG_COLUMNS = List.of("c0", "c2", "c17", "c38");

  @TempDir static Path dir;
  private static Path file;

  @BeforeAll
  static void writeFile() throws Exception {
    file = dir.resolve("groups.parquet");
    WideFiles.write(new org.apache.hadoop.fs.Path(file.toUri()), SPEC);
  }

  /** parquet-hadoop's rows of row group {@code k}: its own full footer parse and record reader. */
  private static List<List<Object>> hadoopRows(int k) throws Exception {
    return hadoopRows(k, COLUMNS);
  }

  private static List<List<Object>> hadoopRows(int k, List<String> columns) throws Exception {
    MessageType fileSchema = WideFiles.schema(SPEC);
    List<Type> fields = new ArrayList<>();
    for (String name : columns) {
      fields.add(fileSchema.getType(name));
    }
    MessageType projected = new MessageType(fileSchema.getName(), fields);
    List<List<Object>> rows = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            WideFiles.input(new org.apache.hadoop.fs.Path(file.toUri())),
            ParquetReadOptions.builder().build())) {
      reader.setRequestedSchema(projected);
      PageReadStore pages = reader.readRowGroup(k);
      RecordReader<Group> records =
          new ColumnIOFactory()
              .getColumnIO(projected, fileSchema)
              .getRecordReader(pages, new GroupRecordConverter(projected));
      for (long r = 0; r < pages.getRowCount(); r++) {
        Group group = records.read();
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
          if (group.getFieldRepetitionCount(c) == 0) {
            row.add(null);
          } else if (columns.get(c).equals("s")) {
            row.add(group.getString(c, 0));
          } else {
            row.add(group.getLong(c, 0));
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private record Scan(
      List<List<Object>> rows, List<Long> firstRows, long rowGroupsDecoded, long footerReads) {}

  private static Scan scan(ReadOptions options, ReadContext context) throws Exception {
    return scan(DataFile.of(file), options, context);
  }

  private static Scan scan(DataFile target, ReadOptions options, ReadContext context)
      throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    List<Long> firstRows = new ArrayList<>();
    try (BatchReader reader = Readers.open(target, options, context)) {
      RecordBatch batch;
      while ((batch = reader.next()) != null) {
        firstRows.add(batch.firstRow());
        for (int r = 0; r < batch.rowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (int c = 0; c < batch.columns().size(); c++) {
            row.add(batch.column(c).getObject(r));
          }
          rows.add(row);
        }
      }
      return new Scan(
          rows,
          firstRows,
          reader.metrics().counter(IndexedFooterReader.ROW_GROUPS_DECODED),
          reader.metrics().counter(ScanCounters.FOOTER_READS));
    }
  }

  private static ReadOptions.Builder options(String rowGroups) {
    ReadOptions.Builder builder = ReadOptions.builder().columns(COLUMNS).prefetchEnabled(false);
    return rowGroups == null
        ? builder
        : builder.property(RowGroupSelection.ROW_GROUPS_PROPERTY, rowGroups);
  }

  @Test
  void eachChosenRowGroupReadsParquetHadoopsValuesAndDecodesOneRowGroup() throws Exception {
    for (int k : new int[] {0, 3, 7}) {
      Scan scan = scan(options(Integer.toString(k)).build(), ReadContext.defaults());

      assertThat(scan.rows()).as("row group %d", k).isEqualTo(hadoopRows(k));
      assertThat(scan.firstRows().get(0)).isEqualTo((long) k * ROWS_PER_GROUP);
      assertThat(scan.rowGroupsDecoded()).isEqualTo(1);
    }
  }

  @Test
  void severalRowGroupsAreReadInFileOrder() throws Exception {
    Scan scan = scan(options("6,2").build(), ReadContext.defaults());

    List<List<Object>> expected = new ArrayList<>(hadoopRows(2));
    expected.addAll(hadoopRows(6));
    assertThat(scan.rows()).isEqualTo(expected);
    assertThat(scan.rowGroupsDecoded()).isEqualTo(2);
  }

  @Test
  void rowRangesDecodeOnlyTheRowGroupsTheyTouch() throws Exception {
    ReadOptions options =
        options(null)
            .columns(LONG_COLUMNS)
            .rowRanges(List.of(new RowRange(45, 50), new RowRange(139, 141)))
            .build();

    Scan scan = scan(options, ReadContext.defaults());

    List<List<Object>> expected = new ArrayList<>(hadoopRows(2, LONG_COLUMNS).subList(5, 10));
    expected.add(hadoopRows(6, LONG_COLUMNS).get(19));
    expected.add(hadoopRows(7, LONG_COLUMNS).get(0));
    assertThat(scan.rows()).isEqualTo(expected);
    assertThat(scan.rowGroupsDecoded()).isEqualTo(3);
  }

  @Test
  void warmCacheReopenReadsNoFooterAndDecodesOneRowGroup() throws Exception {
    MemoryCache cache = MemoryCache.builder().maximumBytes(32 << 20).build();
    try (ReadContext context = ReadContext.builder().cache(cache).build()) {
      Scan cold = scan(options("4").build(), context);
      Scan warm = scan(options("5").build(), context);

      assertThat(cold.footerReads()).isEqualTo(1);
      assertThat(warm.footerReads()).isZero();
      assertThat(warm.rowGroupsDecoded()).isEqualTo(1);
      assertThat(warm.rows()).isEqualTo(hadoopRows(5));
      assertThat(cache.entryCount()).isEqualTo(2); // footer bytes and the index beside them
    }
  }

  @Test
  void prefetchingReaderReturnsTheSameRows() throws Exception {
    ReadOptions options =
        options("1,4,6").prefetchEnabled(true).parallelism(2).minReadBytes(0).build();

    Scan scan = scan(options, ReadContext.defaults());

    List<List<Object>> expected = new ArrayList<>();
    for (int k : new int[] {1, 4, 6}) {
      expected.addAll(hadoopRows(k));
    }
    assertThat(scan.rows()).isEqualTo(expected);
  }

  @Test
  void rangesNameTheFilesRowGroupNotItsPlaceInTheDecodedFooter() throws Exception {
    FilePlan plan =
        new ParquetFormat()
            .plan(
                DataFile.of(file),
                options("2,6").build(),
                RangeBudget.of(options("2,6").build()),
                ReadContext.defaults(),
                new ScanCounters());
    try {
      assertThat(plan.ranges())
          .extracting(range -> range.locator().toString())
          .containsExactly("row group 2", "row group 6");
      assertThat(plan.ranges()).extracting(ReadRange::firstRow).containsExactly(40L, 120L);
    } finally {
      plan.close();
    }
  }

  /** parquet-hadoop's row groups of the split {@code [start, end)}: its own midpoint filter. */
  private static List<Integer> hadoopSplitRowGroups(long start, long end) throws Exception {
    List<Integer> chosen = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            WideFiles.input(new org.apache.hadoop.fs.Path(file.toUri())),
            ParquetReadOptions.builder().withRange(start, end).build())) {
      for (org.apache.parquet.hadoop.metadata.BlockMetaData block : reader.getRowGroups()) {
        chosen.add((int) (block.getRowIndexOffset() / ROWS_PER_GROUP));
      }
    }
    return chosen;
  }

  @Test
  void splitsOfSeveralSizesReadEveryRowOnceAndDecodeOnlyTheirRowGroups() throws Exception {
    long length = java.nio.file.Files.size(file);
    List<List<Object>> expected = new ArrayList<>();
    for (int k = 0; k < SPEC.rowGroups(); k++) {
      expected.addAll(hadoopRows(k));
    }
    for (long size : new long[] {1_000, 7_777, length / 3, length / 2 + 1, length}) {
      List<List<Object>> rows = new ArrayList<>();
      for (long start = 0; start < length; start += size) {
        long end = Math.min(length, start + size);
        Scan split =
            scan(
                DataFile.split(new org.apache.hadoop.fs.Path(file.toUri()), start, end - start),
                options(null).build(),
                ReadContext.defaults());
        List<Integer> hadoop = hadoopSplitRowGroups(start, end);
        List<List<Object>> hadoopSplitRows = new ArrayList<>();
        for (int k : hadoop) {
          hadoopSplitRows.addAll(hadoopRows(k));
        }

        assertThat(split.rows()).as("split [%d, %d)", start, end).isEqualTo(hadoopSplitRows);
        assertThat(split.rowGroupsDecoded())
            .as("split [%d, %d)", start, end)
            .isEqualTo(hadoop.size());
        rows.addAll(split.rows());
      }
      assertThat(rows).as("splits of %d bytes", size).isEqualTo(expected);
    }
  }

  @Test
  void aSplitWithChosenRowGroupsReadsOnlyThoseItHolds() throws Exception {
    long length = java.nio.file.Files.size(file);
    long half = length / 2;
    List<Integer> firstHalf = hadoopSplitRowGroups(0, half);
    int inside = firstHalf.get(firstHalf.size() - 1);
    int outside = inside + 1;

    Scan scan =
        scan(
            DataFile.split(new org.apache.hadoop.fs.Path(file.toUri()), 0, half),
            options(inside + "," + outside).build(),
            ReadContext.defaults());

    assertThat(scan.rows()).isEqualTo(hadoopRows(inside));
    assertThat(scan.rowGroupsDecoded()).isEqualTo(1);
  }

  @Test
  void fullReadDecodesEveryRowGroup() throws Exception {
    Scan scan = scan(options(null).build(), ReadContext.defaults());

    assertThat(scan.rows()).hasSize(8 * ROWS_PER_GROUP);
    assertThat(scan.rowGroupsDecoded()).isEqualTo(8);
  }

  @Test
  void aChunkOutsideTheFileNamesTheFilesRowGroup() throws Exception {
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    int footerLength =
        java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getInt();
    int footerStart = bytes.length - 8 - footerLength;
    org.apache.parquet.format.FileMetaData metadata =
        org.apache.parquet.format.Util.readFileMetaData(
            new java.io.ByteArrayInputStream(bytes, footerStart, footerLength));
    metadata
        .getRow_groups()
        .get(6)
        .getColumns()
        .get(0)
        .getMeta_data()
        .setData_page_offset(10L * bytes.length);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(bytes, 0, footerStart);
    java.io.ByteArrayOutputStream footer = new java.io.ByteArrayOutputStream();
    org.apache.parquet.format.Util.writeFileMetaData(metadata, footer);
    out.write(footer.toByteArray());
    out.write(
        java.nio.ByteBuffer.allocate(4)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(footer.size())
            .array());
    out.write("PAR1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    Path damaged = dir.resolve("damaged-chunk.parquet");
    java.nio.file.Files.write(damaged, out.toByteArray());

    // row group 6 is the second block of the partial footer: the message names the file's number
    assertThatThrownBy(
            () -> Readers.open(damaged, options("2,6").build(), ReadContext.defaults()).close())
        .hasStackTraceContaining("column c0 of row group 6 lies at");
  }

  @Test
  void missingRowGroupIsAnErrorNamingTheProperty() {
    assertThatThrownBy(() -> scan(options("8").build(), ReadContext.defaults()))
        .hasStackTraceContaining("parquet.read.row-groups asks for row group 8");
  }
}
