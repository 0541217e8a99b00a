package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written by DuckDB (an independent C++ writer) with dictionary-encoded strings and binaries
 * over several row groups, read through {@link PrefetchArrowReader} with the reader's dictionary
 * vectors ({@code parquet.read.dictionary-vectors=all}, the default): every value equals the plain
 * read ({@code none}), on the reader's root, through the C Data stream imported back by Arrow Java,
 * and in DuckDB's aggregates over the stream.
 */
@Timeout(120)
class DictionaryStreamTest extends AllocatorTest {

  private static final int ROWS = 9000;

  @TempDir static Path dir;
  static Path file;

  @BeforeAll
  static void writeFile() throws SQLException {
    file = ArrowTestFiles.writeDuckDbDictionaries(dir.resolve("duck-dictionaries.parquet"), ROWS);
  }

  private static ReadOptions options(String dictionaryVectors, boolean prefetch) {
    return ReadOptions.builder()
        .batchSize(500)
        .parallelism(2)
        .prefetchEnabled(prefetch)
        .property("prefetch.min-read-bytes", "0")
        .property("parquet.read.dictionary-vectors", dictionaryVectors)
        .build();
  }

  /** Every row of the plain read, as the Arrow side should hold it. */
  private static List<List<Object>> plainRows() throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    ReadOptions plain = options("none", false);
    try (BatchReader reader = Readers.open(file, plain, ReadContext.defaults())) {
      ArrowMapping mapping = ArrowMapping.of(reader.schema());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int row = 0; row < batch.rowCount(); row++) {
          List<Object> values = new ArrayList<>();
          for (int c = 0; c < batch.columns().size(); c++) {
            ColumnVector column = batch.column(c);
            assertThat(column).isNotInstanceOf(DictionaryVector.class);
            values.add(ValueWalk.expected(column, row, mapping.plans().get(c)));
          }
          rows.add(values);
        }
        batch.release();
      }
    }
    return rows;
  }

  /** Appends the rows of {@code root}, its encoded fields read through {@code dictionaries}. */
  private static void addRows(
      VectorSchemaRoot root, DictionaryProvider dictionaries, List<List<Object>> out) {
    for (int row = 0; row < root.getRowCount(); row++) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < root.getFieldVectors().size(); c++) {
        values.add(ValueWalk.actual(root.getVector(c), row, dictionaries));
      }
      out.add(values);
    }
  }

  @Test
  void theFileComesInDictionaryVectorsAndInPlainChunks() throws IOException {
    // The test's premise: with the default option the scan hands out dictionary vectors for the
    // repeated strings and binaries, and plain vectors where DuckDB wrote no dictionary.
    boolean dictionary = false;
    boolean plainInAnEncodedColumn = false;
    try (BatchReader reader = Readers.open(file, options("all", false), ReadContext.defaults())) {
      int uniq = reader.schema().indexOf("uniq");
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        dictionary |= batch.column("category") instanceof DictionaryVector;
        plainInAnEncodedColumn |= batch.column(uniq) instanceof BinaryVector;
        batch.release();
      }
    }
    assertThat(dictionary).as("a dictionary vector").isTrue();
    assertThat(plainInAnEncodedColumn).as("a plain vector of an encoded column").isTrue();
  }

  @Test
  void everyValueOfTheArrowReaderEqualsThePlainRead() throws IOException {
    List<List<Object>> expected = plainRows();
    List<List<Object>> actual = new ArrayList<>();
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(file), options("all", true), ReadContext.defaults(), allocator)) {
      assertThat(reader.mapping().dictionaryEncodedColumns())
          .containsExactly("category", "name", "tag", "uniq", "late");
      while (reader.loadNextBatch()) {
        addRows(reader.getVectorSchemaRoot(), reader, actual);
      }
      assertThat(reader.scan().metrics().prefetch()).isTrue();
    }
    assertThat(actual).hasSize(ROWS).containsExactlyElementsOf(expected);
  }

  @Test
  void theCStreamImportedBackReadsThePlainValues() throws IOException {
    List<List<Object>> expected = plainRows();
    List<List<Object>> actual = new ArrayList<>();
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(file), options("all", true), ReadContext.defaults(), allocator);
    throughTheCStream(
        reader,
        (ArrowReader imported) -> {
          assertThat(imported.getVectorSchemaRoot().getVector("name").getField().getDictionary())
              .isNotNull();
          while (imported.loadNextBatch()) {
            addRows(imported.getVectorSchemaRoot(), imported, actual);
          }
        });
    assertThat(actual).hasSize(ROWS).containsExactlyElementsOf(expected);
  }

  @Test
  void duckDbReadingTheDictionaryEncodedStreamAgreesWithItsOwnRead() throws Exception {
    String aggregates =
        "count(*), count(category), min(category), max(category), count(DISTINCT category),"
            + " sum(strlen(name)), min(name), max(name), count(DISTINCT name),"
            + " count(tag), min(tag), max(tag), count(DISTINCT tag),"
            + " count(DISTINCT uniq), max(uniq), count(late), min(late), max(late)";
    try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = conn.createStatement()) {
      String own = one(st, "SELECT " + aggregates + " FROM read_parquet('" + file + "')");
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        PrefetchArrowReader reader =
            PrefetchArrowReader.open(
                DataFile.of(file), options("all", true), ReadContext.defaults(), allocator);
        reader.exportTo(stream);
        conn.unwrap(DuckDBConnection.class).registerArrowStream("scan", stream);
        assertThat(one(st, "SELECT " + aggregates + " FROM scan")).isEqualTo(own);
      }
    }
  }

  private static String one(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      StringBuilder out = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.append(i == 1 ? "" : " | ").append(rs.getString(i));
      }
      return out.toString();
    }
  }
}
