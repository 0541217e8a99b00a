package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static dev.prefetch.spark.SharedSpark.builtIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dictionary-encoded strings and binaries, from DuckDB's writer and from parquet-java's (through
 * Spark), read through {@code format("prefetch")} with dictionary vectors and without ({@code
 * parquet.read.dictionary-vectors}), equal to Spark's own Parquet reader value for value.
 */
class DictionaryStringsParityTest {

  private static final String DICTIONARY_VECTORS = "parquet.read.dictionary-vectors";

  /**
   * Low-cardinality strings with nulls, empty strings and non-ASCII text, a binary column, a
   * null-free column, a high-cardinality column, and strings inside a struct and a list.
   */
  private static final String QUERY =
      """
      SELECT
        i AS id,
        CASE WHEN i % 9 = 0 THEN NULL ELSE 'city-' || (i % 17) END AS city,
        CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN ''
             ELSE ['M\u00fcnchen', '\u6771\u4eac', 'S\u00e3o Paulo', '\ud83d\ude42 smile'][i % 4 + 1]
        END AS label,
        'k' || (i % 3) AS kind,
        CASE WHEN i % 4 = 0 THEN NULL ELSE encode('tag-' || (i % 6)) END AS tag,
        'unique-' || i AS unique_name,
        CASE WHEN i % 7 = 0 THEN NULL ELSE {'code': 'c' || (i % 5), 'n': i} END AS info,
        ['w' || (i % 3), NULL, 'y'][1:(i % 4)] AS words
      FROM range(0, 10000) t(i)
      """;

  @TempDir static Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void writeFiles() throws Exception {
    spark = SharedSpark.session();
    Path duck = dir.resolve("duckdb");
    Files.createDirectories(duck);
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY ("
              + QUERY
              + ") TO '"
              + duck.resolve("strings.parquet")
              + "' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 2048)");
    }
    // The same rows from parquet-java (dictionary encoding on, Spark's default), in row groups of
    // about 32 KiB.
    builtIn(dir, "parquet", "duckdb")
        .coalesce(1)
        .write()
        .option("parquet.block.size", "32768")
        .parquet(dir.resolve("spark").toString());
  }

  @AfterEach
  void resetSettings() {
    spark.conf().unset(PrefetchSparkOptions.SESSION_PREFIX + DICTIONARY_VECTORS);
    spark.conf().unset("spark.sql.caseSensitive");
  }

  @ParameterizedTest
  @ValueSource(strings = {"duckdb", "spark"})
  void dictionaryEncodedStringsReadAsSparkReadsThemWithAndWithoutDictionaryVectors(String writer) {
    Dataset<Row> expected = builtIn(dir, "parquet", writer);
    // The option at its default, with several batches per row group sharing its dictionary.
    assertSameRows(expected, prefetch(writer, Map.of("read.batch-size", "1000")));
    assertSameRows(expected, prefetch(writer, Map.of(DICTIONARY_VECTORS, "none")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"duckdb", "spark"})
  void dictionaryEncodedColumnsReachSparkAsDictionaryColumnsUnlessTheOptionSaysNone(String writer) {
    assertThat(wrappers(prefetch(writer, Map.of()), "city")).containsExactly("DictionaryColumn");
    assertThat(wrappers(prefetch(writer, Map.of()), "tag")).containsExactly("DictionaryColumn");
    assertThat(wrappers(prefetch(writer, Map.of(DICTIONARY_VECTORS, "none")), "city"))
        .containsExactly("BinaryColumn");
    Dataset<Row> labelOnly = prefetch(writer, Map.of(DICTIONARY_VECTORS, "label"));
    assertThat(wrappers(labelOnly, "label")).containsExactly("DictionaryColumn");
    assertThat(wrappers(labelOnly, "city")).containsExactly("BinaryColumn");
  }

  @Test
  void theDictionaryVectorsSessionSettingReachesTheReaderAndAnOptionWins() {
    spark.conf().set(PrefetchSparkOptions.SESSION_PREFIX + DICTIONARY_VECTORS, "none");
    assertThat(wrappers(prefetch("duckdb", Map.of()), "city")).containsExactly("BinaryColumn");
    assertThat(wrappers(prefetch("duckdb", Map.of(DICTIONARY_VECTORS, "all")), "city"))
        .containsExactly("DictionaryColumn");
  }

  @Test
  void listedColumnNamesMatchIgnoringCaseAsSparkQueriesDo() {
    Dataset<Row> upper = prefetch("duckdb", Map.of(DICTIONARY_VECTORS, "LABEL"));
    assertThat(wrappers(upper, "label")).containsExactly("DictionaryColumn");
    assertThat(wrappers(upper, "city")).containsExactly("BinaryColumn");
    spark.conf().set("spark.sql.caseSensitive", "true");
    assertThat(wrappers(prefetch("duckdb", Map.of(DICTIONARY_VECTORS, "LABEL")), "label"))
        .containsExactly("BinaryColumn");
  }

  @Test
  void aBadDictionaryVectorsValueFailsTheQueryNamingTheKey() {
    assertThatThrownBy(() -> prefetch("duckdb", Map.of(DICTIONARY_VECTORS, "city,,label")).count())
        .hasStackTraceContaining(DICTIONARY_VECTORS)
        .hasStackTraceContaining("city,,label");
  }

  private static Dataset<Row> prefetch(String table, Map<String, String> options) {
    DataFrameReader reader = spark.read().format("prefetch");
    options.forEach(reader::option);
    return reader.load(dir.resolve(table).toString());
  }

  /** The simple names of the Spark column classes the scan hands out for {@code column}. */
  private static List<String> wrappers(Dataset<Row> table, String column) {
    BatchScanExec scan = batchScan(table.select(column).queryExecution().executedPlan());
    List<String> names =
        scan.executeColumnar()
            .toJavaRDD()
            .map((ColumnarBatch batch) -> batch.column(0).getClass().getSimpleName())
            .distinct()
            .collect();
    return List.copyOf(new TreeSet<>(names));
  }

  private static BatchScanExec batchScan(SparkPlan plan) {
    scala.collection.Iterator<SparkPlan> nodes = plan.collectLeaves().iterator();
    while (nodes.hasNext()) {
      if (nodes.next() instanceof BatchScanExec scan) {
        return scan;
      }
    }
    throw new AssertionError("no BatchScan in " + plan);
  }
}
