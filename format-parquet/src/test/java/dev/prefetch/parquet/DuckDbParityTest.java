package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Files written by DuckDB (an independent C++ writer) read equal to parquet-hadoop's reader. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(60)
class DuckDbParityTest {

  /** Flat and nested columns, nulls in each, over several row groups. */
  static final String QUERY =
      """
      SELECT
        i AS id,
        CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 37) % 1000 - 500 END::INTEGER AS int_col,
        (i % 100)::TINYINT AS tiny_col,
        (i % 30000)::SMALLINT AS small_col,
        (i % 250)::UTINYINT AS utiny_col,
        ((i * 2654435761) % 4294967296)::UINTEGER AS uint_col,
        (i * 1000000007 + 18000000000000000000)::UBIGINT AS ubig_col,
        CASE WHEN i % 5 = 0 THEN NULL ELSE i * 1.5 END::DOUBLE AS double_col,
        (i / 4.0)::FLOAT AS float_col,
        CASE WHEN i % 3 = 0 THEN NULL ELSE 'name-' || (i % 50) END AS string_col,
        (i % 2 = 0) AS bool_col,
        (i * 3.25)::DECIMAL(10, 2) AS dec_small,
        (i * 12345.6789)::DECIMAL(30, 5) AS dec_wide,
        DATE '2020-01-01' + (i % 1000)::INTEGER AS date_col,
        TIMESTAMP '2021-06-01 12:00:00' + to_microseconds(i * 1000003) AS ts_col,
        TIMESTAMPTZ '2021-06-01 12:00:00+00' + to_microseconds(i * 7) AS tstz_col,
        TIME '01:02:03' + to_microseconds(i * 1000) AS time_col,
        ('\\x' || lpad(printf('%x', i % 65536), 4, '0'))::BLOB AS blob_col,
        CASE WHEN i % 11 = 0 THEN NULL ELSE [i, i + 1, NULL, i + 3][1:(i % 5)] END AS list_col,
        CASE WHEN i % 13 = 0 THEN NULL
             ELSE {'a': i, 'b': CASE WHEN i % 2 = 0 THEN NULL ELSE 'x' || i END} END AS struct_col,
        CASE WHEN i % 17 = 0 THEN NULL ELSE MAP {'k' || (i % 3): i, 'z': NULL} END AS map_col,
        [{'p': i, 'q': [i, NULL]}, NULL] AS list_of_struct
      FROM range(0, 5000) t(i)
      """;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"snappy, V1", "zstd, V2", "uncompressed, V1", "gzip, V2"})
  void duckDbFilesMatchParquetHadoop(String codec, String version)
      throws IOException, SQLException {
    Path file = dir.resolve("duck-" + codec + "-" + version + ".parquet");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY ("
              + QUERY
              + ") TO '"
              + file
              + "' (FORMAT parquet, COMPRESSION "
              + codec
              + ", ROW_GROUP_SIZE 1024, PARQUET_VERSION "
              + version
              + ")");
    }
    List<List<Object>> expected = Rows.expected(file);
    assertThat(expected).hasSize(5000);
    try (ReadContext context = ReadContext.defaults()) {
      for (int parallelism : new int[] {1, 4}) {
        Rows.Scan scan =
            Rows.read(
                file,
                ReadOptions.builder()
                    .parallelism(parallelism)
                    .batchSize(777)
                    .minReadBytes(0)
                    .build(),
                context);
        assertThat(scan.rows()).containsExactlyElementsOf(expected);
      }
    }
  }

  @Test
  void aDuckDbFileWithNoRowsReadsNoRows() throws IOException, SQLException {
    Path file = dir.resolve("duck-empty.parquet");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY (SELECT 1::BIGINT AS id, 'x' AS name WHERE false) TO '"
              + file
              + "' (FORMAT parquet)");
    }
    try (ReadContext context = ReadContext.defaults()) {
      Rows.Scan scan =
          Rows.read(file, ReadOptions.builder().parallelism(4).minReadBytes(0).build(), context);
      assertThat(scan.rows()).isEmpty();
      assertThat(Rows.expected(file)).isEmpty();
    }
  }
}
