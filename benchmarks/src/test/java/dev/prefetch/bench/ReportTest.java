package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.bench.report.BenchResult;
import dev.prefetch.bench.report.ResultsFile;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The report of a small checked-in JMH result file ({@code sample-results.json}): 4,000,000 rows,
 * known medians, one outlier that separates median from mean, one result in ms/op and one with an
 * undefined error.
 */
class ReportTest {

  private static final long MIB = 1 << 20;

  private static List<BenchResult> sample() throws IOException, URISyntaxException {
    return ResultsFile.read(Path.of(ReportTest.class.getResource("/sample-results.json").toURI()));
  }

  private static String report() throws IOException, URISyntaxException {
    List<BenchResult> results = sample();
    return new Report(results, Map.of("parquet", 200 * MIB, "orc", 150 * MIB), 4_000_000)
        .markdown(Report.machine(results, Instant.parse("2026-11-30T06:00:00Z")), "bin/bench");
  }

  private static String line(String markdown, String start) {
    return markdown
        .lines()
        .filter(l -> l.startsWith(start))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no line starting with " + start + " in\n" + markdown));
  }

  @Test
  void resultsAreReadInSecondsWithEveryMeasuredScanAndTheForksArguments() throws Exception {
    List<BenchResult> results = sample();
    assertThat(results).hasSize(13);
    BenchResult single = results.get(0);
    assertThat(single.benchmark()).isEqualTo("ScanBenchmark");
    assertThat(single.params())
        .containsEntry("reader", "single")
        .containsEntry("format", "parquet");
    assertThat(single.seconds()).containsExactly(4.0, 3.9, 5.0);
    assertThat(single.median()).isEqualTo(4.0);
    assertThat(single.mean()).isCloseTo(4.3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(single.systemProperty("bench.rows")).isEqualTo("4000000");
    BenchResult eight = results.get(5);
    assertThat(eight.median()).isEqualTo(2.0);
    assertThat(eight.error()).isNaN();
  }

  @Test
  void eachFormatAndStorageGetsATableWithMedianMeanRowsPerSecondAndMibPerSecond() throws Exception {
    String md = report();
    assertThat(md)
        .contains(
            "### Parquet, local file",
            "### Parquet, remote model",
            "### ORC, local file",
            "Date of the run: 2026-11-30T06:00:00 UTC",
            "bin/bench",
            "(1 warm-up + 3 measured)",
            "4,000,000 rows");
    // single: median 4.0 s (mean 4.3 s): 1.00 M rows/s, 200 MiB / 4 s = 50 MiB/s, 6 / 4 = 1.50x.
    assertThat(line(md, "| ours, single reader | 4.000 |"))
        .isEqualTo("| ours, single reader | 4.000 | 4.300 | ± 0.100 | 1.00 M | 50.0 | 1.50x |");
    assertThat(line(md, "| ours, 2 producers | 2.000 |")).contains("| 2.00 M | 100.0 | 3.00x |");
    assertThat(line(md, "| ours, 8 producers |")).contains("| n/a |", "| 5.00x |");
    assertThat(line(md, "| DuckDB (native), 2 threads |")).contains("| 0.500 |", "| 8.00 M |");
    // ORC's file is 150 MiB: 1.5 s is 100 MiB/s.
    assertThat(md.substring(md.indexOf("### ORC, local file")))
        .contains("| ours, 2 producers | 1.500 | 1.500 | ± 0.100 | 2.67 M | 100.0 | 3.00x |");
    assertThat(md).doesNotContain("### ORC, remote");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "| Parquet: ours, single reader | parquet-hadoop (column API) | local |; | 4.000 | 6.000 | 1.50x |",
        "| Parquet: ours, 2 producers | parquet-hadoop (column API) | local |; | 3.00x |",
        "| Parquet: ours, 2 producers | Hardwood, 2 threads | local |; | 2.000 | 2.500 | 1.25x |",
        "| ORC: ours, 2 producers | orc-core (vectorized) | local |; | 3.00x |",
        "| Parquet: ours, 8 producers | ours, single reader | remote |; | 2.000 | 8.000 | 4.00x |",
        "| Parquet: ours, 8 producers | parquet-hadoop (column API) | remote |; | 5.00x |",
        "| Parquet: ours, 1 producer | DuckDB (native), 1 thread | local |; | 3.800 | 1.000 | 0.26x |",
        "| Parquet: ours, 2 producers | DuckDB (native), 2 threads | local |; | 0.25x |"
      })
  void ratiosComeFromTheMediansOfTheSameRun(String row, String ending) throws Exception {
    assertThat(line(report(), row)).endsWith(ending);
  }

  @Test
  void missingContendersLeaveTheirRatiosOutRatherThanPrintingBlanks() throws Exception {
    assertThat(report()).doesNotContain("Hardwood, 4 threads", "| ORC: ours, 8 producers");
  }

  @Test
  void aFileThatIsNotJmhJsonFailsNamingTheFile(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("results.json");
    Files.writeString(bad, "{\"benchmark\": [1, 2");
    assertThatThrownBy(() -> ResultsFile.read(bad))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(bad.toString())
        .hasMessageContaining("not a JMH JSON result file");
    Files.writeString(
        bad,
        "[{\"benchmark\":\"a.B.scan\",\"primaryMetric\":{\"score\":1,"
            + "\"scoreUnit\":\"ops/s\"}}]");
    assertThatThrownBy(() -> ResultsFile.read(bad)).hasMessageContaining("ops/s");
  }
}
