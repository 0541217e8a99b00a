package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark's file options act on {@code format("prefetch")} as on Spark's own Parquet and ORC readers,
 * each checked against the built-in reader on the same directory: the same rows, or both fail
 * naming the file.
 */
class FileOptionsTest {

  @TempDir Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = SharedSpark.session();
  }

  @AfterEach
  void resetSettings() {
    spark.conf().unset("spark.sql.files.ignoreCorruptFiles");
    spark.conf().unset("spark.sql.files.ignoreMissingFiles");
  }

  /** Six files of 1,000 rows each in {@code table}. */
  private static void writeTable(Path table, String format, long from) {
    spark
        .sql(
            "SELECT id, CONCAT('v', id) AS v, id % 7 AS k FROM RANGE("
                + from
                + ", "
                + (from + 6000)
                + ", 1, 6)")
        .write()
        .format(format)
        .save(table.toString());
  }

  private static List<Path> dataFiles(Path table, String format) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith("." + format))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static Dataset<Row> builtIn(String format, Path path, Map<String, String> options) {
    return spark.read().format(format).options(options).load(path.toString());
  }

  private static Dataset<Row> ours(Path path, Map<String, String> options) {
    return spark.read().format("prefetch").options(options).load(path.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void corruptFilesAreSkippedWithIgnoreCorruptFilesAndFailTheQueryNamingThemWithout(String format)
      throws IOException {
    Path table = dir.resolve("table");
    writeTable(table, format, 0);
    // One file of garbage and one valid file cut in half, named to sort last (schema inference
    // reads a good file first, for both readers).
    Files.write(
        table.resolve("zz-garbage." + format),
        "not a data file at all; ".repeat(200).getBytes(StandardCharsets.UTF_8));
    byte[] whole = Files.readAllBytes(dataFiles(table, format).get(0));
    Files.write(
        table.resolve("zz-truncated." + format), java.util.Arrays.copyOf(whole, whole.length / 2));

    spark.conf().set("spark.sql.files.ignoreCorruptFiles", "true");
    Dataset<Row> expected = builtIn(format, table, Map.of());
    assertThat(expected.count()).isEqualTo(6000);
    assertSameRows(expected, ours(table, Map.of()));

    spark.conf().set("spark.sql.files.ignoreCorruptFiles", "false");
    assertThatThrownBy(() -> builtIn(format, table, Map.of()).collectAsList())
        .hasStackTraceContaining("zz-");
    assertThatThrownBy(() -> ours(table, Map.of()).collectAsList()).hasStackTraceContaining("zz-");
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void filesThatVanishAfterListingAreSkippedWithIgnoreMissingFilesAndNamedWithout(String format)
      throws IOException {
    Path table = dir.resolve("table");
    writeTable(table, format, 0);
    Dataset<Row> expected = builtIn(format, table, Map.of());
    Dataset<Row> actual = ours(table, Map.of());
    Path gone = dataFiles(table, format).get(2);
    Files.delete(gone);
    Files.deleteIfExists(gone.resolveSibling("." + gone.getFileName() + ".crc"));

    spark.conf().set("spark.sql.files.ignoreMissingFiles", "true");
    assertThat(expected.count()).isEqualTo(5000);
    assertSameRows(expected, actual);

    spark.conf().set("spark.sql.files.ignoreMissingFiles", "false");
    String name = gone.getFileName().toString();
    assertThatThrownBy(expected::collectAsList).hasStackTraceContaining(name);
    assertThatThrownBy(actual::collectAsList).hasStackTraceContaining(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void mergeSchemaUnitesTheColumnsOfEveryFile(String format) {
    Path table = dir.resolve("table");
    spark
        .sql("SELECT id, CONCAT('a', id) AS a FROM RANGE(0, 2000, 1, 2)")
        .write()
        .format(format)
        .save(table.resolve("part=1").toString());
    spark
        .sql("SELECT id, id * 1.5 AS b FROM RANGE(2000, 5000, 1, 3)")
        .write()
        .format(format)
        .save(table.resolve("part=2").toString());
    Map<String, String> merge = Map.of("mergeSchema", "true");
    Dataset<Row> expected = builtIn(format, table, merge);
    assertThat(expected.schema().fieldNames()).containsExactlyInAnyOrder("id", "a", "b", "part");
    assertSameRows(expected, ours(table, merge));
    assertSameRows(
        builtIn(format, table, merge).where("b > 3000"), ours(table, merge).where("b > 3000"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void pathGlobFilterReadsOnlyTheFilesItMatches(String format) throws IOException {
    Path table = dir.resolve("table");
    writeTable(table, format, 0);
    List<Path> files = dataFiles(table, format);
    Files.move(files.get(0), files.get(0).resolveSibling("other-0." + format));
    Files.move(files.get(1), files.get(1).resolveSibling("other-1." + format));
    Map<String, String> glob = Map.of("pathGlobFilter", "part-*");
    Dataset<Row> expected = builtIn(format, table, glob);
    assertThat(expected.count()).isEqualTo(4000);
    assertSameRows(expected, ours(table, glob));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void recursiveFileLookupReadsFilesInEveryDirectoryBelow(String format) throws IOException {
    Path table = dir.resolve("table");
    writeTable(table.resolve("a").resolve("b"), format, 0);
    writeTable(table.resolve("c"), format, 6000);
    Map<String, String> recursive = Map.of("recursiveFileLookup", "true");
    Dataset<Row> expected = builtIn(format, table, recursive);
    assertThat(expected.count()).isEqualTo(12000);
    assertThat(expected.schema().fieldNames()).containsExactly("id", "v", "k");
    assertSameRows(expected, ours(table, recursive));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void modifiedBeforeAndAfterChooseFilesByTheirModificationTime(String format) throws IOException {
    Path table = dir.resolve("table");
    writeTable(table, format, 0);
    List<Path> files = dataFiles(table, format);
    for (int i = 0; i < files.size(); i++) {
      String day = i < 2 ? "2020-01-15T00:00:00Z" : "2024-01-15T00:00:00Z";
      Files.setLastModifiedTime(files.get(i), FileTime.from(Instant.parse(day)));
    }
    Map<String, String> after = Map.of("modifiedAfter", "2022-01-01T00:00:00");
    Dataset<Row> expected = builtIn(format, table, after);
    assertThat(expected.count()).isEqualTo(4000);
    assertSameRows(expected, ours(table, after));
    Map<String, String> before = Map.of("modifiedBefore", "2022-01-01T00:00:00");
    Dataset<Row> old = builtIn(format, table, before);
    assertThat(old.count()).isEqualTo(2000);
    assertSameRows(old, ours(table, before));
  }
}
