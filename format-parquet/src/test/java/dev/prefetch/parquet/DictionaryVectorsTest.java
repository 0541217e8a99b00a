package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which columns come as {@link DictionaryVector}s ({@code parquet.read.dictionary-vectors}): the
 * string and binary columns whose chunk is wholly dictionary-encoded, sharing one dictionary per
 * row group; every value equal to the plain read's and to parquet-hadoop's, from parquet-java (both
 * page versions) and from DuckDB.
 */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(60)
class DictionaryVectorsTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional binary mode (STRING);"
              + " required fixed_len_byte_array(2) code; optional binary comment (STRING); }");

  private static final int ROWS = 12_000;

  @TempDir Path dir;

  /** Low-cardinality mode and code; a comment too varied for the writer's 4 KiB dictionary. */
  private Path writeParquetJava(WriterVersion version) throws IOException {
    Path file = dir.resolve("dictionary-" + version + ".parquet");
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(SCHEMA)
            .withWriterVersion(version)
            .withDictionaryPageSize(4 * 1024)
            .withPageRowCountLimit(1_000)
            .withRowGroupSize(64 * 1024L)
            .build()) {
      String[] modes = {"AIR", "MAIL", "SHIP", "", "TRUCK", "RÄIL"};
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup().append("id", (long) i);
        if (i % 7 != 3) {
          g.append("mode", modes[i % modes.length]);
        }
        g.append("code", new String(new char[] {(char) ('A' + i % 3), 'x'}));
        if (i % 5 != 0) {
          g.append("comment", "comment number " + i * 7919L);
        }
        writer.write(g);
      }
    }
    return file;
  }

  private Path writeDuckDb() throws IOException, SQLException {
    Path file = dir.resolve("dictionary-duckdb.parquet");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY (SELECT i::BIGINT AS id,"
              + " CASE WHEN i % 7 = 3 THEN NULL ELSE ['AIR','MAIL','SHIP','','TRUCK'][i % 5 + 1] END"
              + " AS mode, 'c' || (i % 3) AS code, 'comment number ' || (i * 7919) AS comment"
              + " FROM range(0, "
              + ROWS
              + ") t(i)) TO '"
              + file
              + "' (FORMAT parquet, ROW_GROUP_SIZE 5000)");
    }
    return file;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"PARQUET_1_0", "PARQUET_2_0", "DUCKDB"})
  void dictionaryEncodedStringColumnsComeAsIdsIntoOneDictionaryPerRowGroup(String writer)
      throws Exception {
    Path file =
        writer.equals("DUCKDB") ? writeDuckDb() : writeParquetJava(WriterVersion.valueOf(writer));
    List<List<Object>> expected = Rows.expected(file);

    for (int parallelism : new int[] {1, 3}) {
      Scan scan = scan(file, parallelism, null);
      assertThat(scan.rows).containsExactlyElementsOf(expected);
      // mode: ids, one dictionary per row group, shared by that row group's batches.
      assertThat(scan.kinds.get(1)).containsOnly(DictionaryVector.class);
      assertThat(scan.dictionariesPerRowGroup(1)).allMatch(count -> count == 1);
      assertThat(scan.distinctDictionaries(1)).isEqualTo(scan.rowGroups());
      assertThat(scan.kinds.get(0)).containsOnly(LongVector.class);
      // code: parquet-java writes fixed-length byte arrays dictionary-encoded with version 2
      // pages only; its version 1 chunks are plain.
      assertThat(scan.kinds.get(2))
          .containsOnly(writer.equals("PARQUET_1_0") ? BinaryVector.class : DictionaryVector.class);
      if (!writer.equals("DUCKDB")) {
        // parquet-java fell back to plain pages for the comment: its chunks say so.
        assertThat(scan.kinds.get(3)).contains(BinaryVector.class);
      }
    }

    Scan plain = scan(file, 2, "none");
    assertThat(plain.rows).containsExactlyElementsOf(expected);
    for (int c = 0; c < 4; c++) {
      assertThat(plain.kinds.get(c)).doesNotContain(DictionaryVector.class);
    }

    Scan listed = scan(file, 1, "mode, id");
    assertThat(listed.rows).containsExactlyElementsOf(expected);
    assertThat(listed.kinds.get(0)).containsOnly(LongVector.class); // listed, but no string
    assertThat(listed.kinds.get(1)).containsOnly(DictionaryVector.class);
    assertThat(listed.kinds.get(2)).containsOnly(BinaryVector.class);
  }

  /** The first row of each row group. */
  private static List<Long> rowGroupStarts(Path file) throws IOException {
    List<Long> starts = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      long start = 0;
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        starts.add(start);
        start += block.getRowCount();
      }
    }
    assertThat(starts).hasSizeGreaterThan(1);
    return starts;
  }

  /** The rows, and per column the vector classes and dictionaries of its batches. */
  private static final class Scan {
    final List<List<Object>> rows = new ArrayList<>();
    final List<List<Class<?>>> kinds = new ArrayList<>();

    /** Per column, per batch: the dictionary (or null) and the row group's first row. */
    final List<List<Map.Entry<Object, Long>>> dictionaries = new ArrayList<>();

    final List<Long> rowGroupStarts = new ArrayList<>();

    long rowGroups() {
      return rowGroupStarts.stream().distinct().count();
    }

    List<Long> dictionariesPerRowGroup(int column) {
      List<Long> counts = new ArrayList<>();
      for (long start : rowGroupStarts.stream().distinct().toList()) {
        counts.add(
            dictionaries.get(column).stream()
                .filter(e -> e.getValue() == start)
                .map(e -> System.identityHashCode(e.getKey()))
                .distinct()
                .count());
      }
      return counts;
    }

    long distinctDictionaries(int column) {
      return dictionaries.get(column).stream()
          .map(e -> System.identityHashCode(e.getKey()))
          .distinct()
          .count();
    }
  }

  private static Scan scan(Path file, int parallelism, String dictionaryVectors)
      throws IOException {
    ReadOptions.Builder options =
        ReadOptions.builder().parallelism(parallelism).batchSize(700).minReadBytes(0);
    if (dictionaryVectors != null) {
      options.property(ParquetOptions.DICTIONARY_VECTORS, dictionaryVectors);
    }
    List<Long> rowGroupStarts = rowGroupStarts(file);
    Scan scan = new Scan();
    for (int c = 0; c < 4; c++) {
      scan.kinds.add(new ArrayList<>());
      scan.dictionaries.add(new ArrayList<>());
    }
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options.build(), context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        long first = batch.firstRow();
        long rowGroup = rowGroupStarts.stream().filter(s -> s <= first).reduce(0L, Math::max);
        scan.rowGroupStarts.add(rowGroup);
        for (int c = 0; c < 4; c++) {
          ColumnVector vector = batch.column(c);
          scan.kinds.get(c).add(vector.getClass());
          if (vector instanceof DictionaryVector ids) {
            scan.dictionaries.get(c).add(Map.entry(ids.dictionary(), rowGroup));
          }
        }
        for (int r = 0; r < batch.rowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (int c = 0; c < 4; c++) {
            row.add(Rows.normalize(batch.column(c).getObject(r)));
          }
          scan.rows.add(row);
        }
        batch.release(); // the next batches then reuse the ids arrays, never the dictionary
      }
    }
    return scan;
  }
}
