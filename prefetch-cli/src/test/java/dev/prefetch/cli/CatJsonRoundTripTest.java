package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.cli.inspect.JsonValues;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code cat --json} and {@code head --json}: every value of the generated files, parsed back
 * through the documented encoding ({@link JsonValues}), equals the value in the reader's batches.
 */
@Timeout(120)
class CatJsonRoundTripTest extends InspectFilesTest {

  static Stream<Path> allFiles() {
    return Stream.of(files.scanParquet, files.scanOrc, files.nestedParquet, files.nestedOrc);
  }

  /** Every row of {@code file} as normalized values, read with our reader. */
  private static List<List<Object>> batchValues(Path file, ReadOptions options) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try (ReadContext context = ReadContext.builder().build();
        BatchReader reader = Readers.open(DataFile.of(file), options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int r = 0; r < batch.rowCount(); r++) {
          List<Object> row = new ArrayList<>();
          for (int c = 0; c < batch.columns().size(); c++) {
            row.add(JsonValues.normalize(batch.column(c).getObject(r)));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static List<List<Object>> jsonValues(String out, Schema schema) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    for (String line : out.strip().lines().toList()) {
      JsonNode node = MAPPER.readTree(line);
      assertThat(node.size()).as(line).isEqualTo(schema.size());
      List<Object> row = new ArrayList<>();
      for (Field field : schema.fields()) {
        row.add(JsonValues.decode(node.get(field.name()), field.type()));
      }
      rows.add(row);
    }
    return rows;
  }

  private static Schema schemaOf(Path file, ReadOptions options) throws IOException {
    try (ReadContext context = ReadContext.builder().build();
        BatchReader reader = Readers.open(DataFile.of(file), options, context)) {
      return reader.schema();
    }
  }

  @ParameterizedTest
  @MethodSource("allFiles")
  void catJsonRoundTripsEveryValue(Path file) throws IOException {
    Cli.Result r =
        Cli.run(
            "cat",
            "--json",
            "--threads",
            "2",
            "--conf",
            "prefetch.min-read-bytes=0",
            file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    ReadOptions options = ReadOptions.builder().build();
    List<List<Object>> expected = batchValues(file, options);
    assertThat(expected).hasSizeGreaterThan(1000);
    List<List<Object>> actual = jsonValues(r.out(), schemaOf(file, options));
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i))
          .as("row %d of %s", i, file.getFileName())
          .isEqualTo(expected.get(i));
    }
    // nulls and nested values are there to round-trip
    assertThat(r.out()).contains("null");
  }

  static Stream<Path> oneFilePerFormat() {
    return Stream.of(files.scanParquet, files.nestedOrc);
  }

  @ParameterizedTest
  @MethodSource("oneFilePerFormat")
  void catAppliesColumnsRowsAndFilter(Path file) throws IOException {
    Cli.Result r =
        Cli.run(
            "cat",
            "--json",
            "--columns",
            "id",
            "--rows",
            "100:900",
            "--filter",
            "id >= 500",
            file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    // Pushed-down filters prune by row groups, pages or strides: rows 100..900 stay a superset
    // of 500..900 and never leave the --rows window.
    assertThat(lines).hasSizeBetween(400, 800);
    for (String line : lines) {
      JsonNode node = MAPPER.readTree(line);
      assertThat(node.size()).isEqualTo(1);
      assertThat(node.get("id").longValue()).isBetween(100L, 899L);
    }
    assertThat(lines.get(lines.size() - 1)).isEqualTo("{\"id\":899}");
  }

  @Test
  void headPrintsTheFirstRowsAsJsonOrAnAlignedTable() throws IOException {
    Cli.Result json = Cli.run("head", "-n", "7", "--json", files.nestedOrc.toString());
    assertThat(json.exitCode()).as(json.err()).isZero();
    ReadOptions options = ReadOptions.builder().build();
    List<List<Object>> expected = batchValues(files.nestedOrc, options).subList(0, 7);
    assertThat(jsonValues(json.out(), schemaOf(files.nestedOrc, options))).isEqualTo(expected);

    Cli.Result text =
        Cli.run(
            "head", "-n", "3", "--columns", "id,category,comment", files.scanParquet.toString());
    assertThat(text.exitCode()).as(text.err()).isZero();
    List<String> lines = text.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).startsWith("id").contains("category", "comment");
    int commentColumn = lines.get(0).indexOf("comment");
    for (String line : lines.subList(1, 4)) {
      assertThat(line.length()).isGreaterThan(commentColumn);
      assertThat(line.charAt(commentColumn - 1)).isEqualTo(' ');
    }
    assertThat(lines.get(1)).startsWith(" 0  ").matches(" 0  \\S+ +(null|note \\d+)");
  }

  @Test
  void headOfSeveralFilesNamesEachAndZeroRowsPrintsTheHeader() {
    Cli.Result r =
        Cli.run(
            "head",
            "-n",
            "2",
            "--columns",
            "id",
            files.scanParquet.toString(),
            files.scanOrc.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("==> " + files.scanParquet + " <==", "==> " + files.scanOrc + " <==");
    Cli.Result none = Cli.run("head", "-n", "0", files.scanOrc.toString());
    assertThat(none.exitCode()).as(none.err()).isZero();
    assertThat(none.out().lines().toList()).hasSize(1);
    Cli.Result negative = Cli.run("head", "-n", "-1", files.scanOrc.toString());
    assertThat(negative.exitCode()).isEqualTo(CliException.USAGE);
    assertThat(negative.err()).contains("-n must not be negative");
  }
}
