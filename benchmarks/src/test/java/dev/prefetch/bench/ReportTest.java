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
 * undefined error; Trino's readers, the decompression floors and lineitem figures on both formats.
 */
class ReportTest {

  private static final long MIB = 1 << 20;

  private static List<BenchResult> sample() throws IOException, URISyntaxException {
    return ResultsFile.read(Path.of(ReportTest.class.getResource("/sample-results.json").toURI()));
  }

  private static final String CPU = "CPU: Test CPU 9000 @ 2.0GHz, 2 cores";

  private static String report() throws IOException, URISyntaxException {
    return report(sample());
  }

  private static String report(List<BenchResult> results) {
    return new Report(results, Map.of("parquet", 200 * MIB, "orc", 150 * MIB), 4_000_000, CPU)
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
    assertThat(results).hasSize(29);
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
        .isEqualTo(
            "| ours, single reader | 4.000 | 4.300 | ± 0.100 | 1.00 M | 50.0 | 1.50x | 4.00x |");
    // beside the library, the floor: 2.0 s over the 2-thread floor's 0.8 s
    assertThat(line(md, "| ours, 2 producers | 2.000 |"))
        .contains("| 2.00 M | 100.0 | 3.00x | 2.50x |");
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
  void theCurrentTableComesFirstWithEachFigureBesideItsFloorAndItsRivalsWithTheSameThreads()
      throws Exception {
    String md = report();
    assertThat(md.substring(md.indexOf("### "))).startsWith("### Current figures");
    // 2.0 s: floor-2 0.8 s, DuckDB-2 0.5 s, Trino-2 1.6 s, Hardwood-2 2.5 s, parquet-hadoop 6 s
    assertThat(line(md, "| Parquet (scan.parquet) | local | ours, 2 producers |"))
        .isEqualTo(
            "| Parquet (scan.parquet) | local | ours, 2 producers | 2 | 2.000 | 2.50x | 0.25x |"
                + " 0.80x | 1.25x | 3.00x |");
    // one thread: floor-1 1.0 s, DuckDB-1 1.0 s, Trino-1 3.2 s, no Hardwood-1
    assertThat(line(md, "| Parquet (scan.parquet) | local | ours, single reader |"))
        .isEqualTo(
            "| Parquet (scan.parquet) | local | ours, single reader | 1 | 4.000 | 4.00x | 0.25x |"
                + " 0.80x |  | 1.50x |");
    // the remote figures have no floor (a floor of local reads)
    assertThat(line(md, "| Parquet (scan.parquet) | remote | ours, 8 producers |"))
        .startsWith("| Parquet (scan.parquet) | remote | ours, 8 producers | 8 | 2.000 |  |");
    assertThat(line(md, "| ORC (scan.orc) | local | ours, 2 producers |"))
        .isEqualTo(
            "| ORC (scan.orc) | local | ours, 2 producers | 2 | 1.500 |  |  | 1.20x |  | 3.00x |");
    assertThat(line(md, "| lineitem Parquet (DuckDB's), all columns | local | ours, 2 producers |"))
        .isEqualTo(
            "| lineitem Parquet (DuckDB's), all columns | local | ours, 2 producers | 2 | 0.600 |"
                + " 1.50x | 1.50x | 1.10x |  |  |");
    assertThat(line(md, "| lineitem ORC (orc-core's), all columns | local | ours, 2 producers |"))
        .endsWith("| 1.000 |  |  | 2.00x |  | 5.00x |");
    // a floor is set beside nothing
    assertThat(line(md, "| Parquet (scan.parquet) | local | floor: decompression, 2 threads |"))
        .endsWith("| 2 | 0.800 |  |  |  |  |  |");
    assertThat(md).contains("the lineitem files 6,000,000 rows");
    assertThat(md)
        .contains(
            "| Parquet (scan.parquet) | local | Trino (trino-parquet), 2 threads | 2 | 1.600 | 2.00x |",
            "| Parquet (scan.parquet) | local | floor: one copy of the decompressed bytes, 2 threads |"
                + " 2 | 0.100 |");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "| Parquet (scan.parquet) | ours, 2 producers vs DuckDB (native), 2 threads |;"
            + " 2.000 | 0.500 | 0.25x | at least 1.30x (ahead of DuckDB) | no | 2.50x |",
        "| Parquet (scan.parquet) | ours, 2 producers vs Trino (trino-parquet), 2 threads |;"
            + " | 0.80x | at least 1.20x (ahead of Trino) | no | 2.50x | 2.00x |",
        "| Parquet (scan.parquet) | ours, 2 producers vs parquet-hadoop (column API) |;"
            + " | 3.00x | at least 6.00x (ahead of parquet-hadoop) | no | 2.50x |",
        "| Parquet (scan.parquet) | ours, 2 producers over the decompression floor |;"
            + " | 2.000 | 0.800 | 2.50x | at most 1.60x (close to the floor) | no | 2.50x | |",
        "| lineitem Parquet (DuckDB's), all columns | ours, 2 producers vs DuckDB (native), 2"
            + " threads |; | 1.50x | at least 1.30x (ahead of DuckDB) | yes | 1.50x |",
        "| lineitem Parquet (DuckDB's), integers | ours, 2 producers vs DuckDB (native), 2"
            + " threads |; | 0.50x | at least 1.00x (no group behind DuckDB) | no |  |  |",
        "| lineitem Parquet (DuckDB's), all columns | ours, 2 producers over the decompression"
            + " floor |; | 1.50x | at most 1.60x (close to the floor) | yes | 1.50x | |",
        "| ORC (scan.orc) | ours, 2 producers vs orc-core (vectorized) |;"
            + " | 3.00x | at least 3.50x (ahead of orc-core) | no |  |  |",
        "| ORC (scan.orc) | ours, single reader vs Trino (trino-orc), 1 thread |;"
            + " | 3.000 | 2.400 | 0.80x | at least 1.00x (one reader as fast as Trino's) | no |  |  |",
        "| lineitem ORC (orc-core's), all columns | ours, 2 producers vs orc-core (vectorized) |;"
            + " | 5.00x | at least 4.00x (ahead of orc-core) | yes |  |  |"
      })
  void theTargetsTableStatesEachGoalAndWhetherTheSameRunMeetsIt(String row, String ending)
      throws Exception {
    String md = report();
    assertThat(md.indexOf("### Targets")).isLessThan(md.indexOf("### Parquet, local file"));
    assertThat(line(md, row)).contains(ending);
  }

  @Test
  void everyTableCarriesTheCpuModel() throws Exception {
    List<String> lines = report().lines().toList();
    int tables = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("### ")) {
        tables++;
        assertThat(lines.get(i + 2)).as("under %s", lines.get(i)).isEqualTo(CPU);
      }
    }
    assertThat(tables).isGreaterThanOrEqualTo(6);
  }

  @Test
  void ofTwoFiguresOfTheSameTrialTheLatestCounts() throws Exception {
    List<BenchResult> results = new java.util.ArrayList<>(sample());
    BenchResult duckDb = results.get(12);
    assertThat(Report.key(duckDb)).isEqualTo("parquet/local/duckdb-2");
    results.add(
        new BenchResult(
            duckDb.benchmark(),
            duckDb.params(),
            List.of(0.4, 0.4, 0.4),
            0.4,
            0.01,
            1,
            1,
            3,
            duckDb.jvmArgs(),
            duckDb.jvm(),
            Map.of()));
    String md = report(results);
    assertThat(
            md.lines()
                .filter(l -> l.startsWith("| Parquet (scan.parquet) | local | DuckDB (native), 2")))
        .singleElement()
        .asString()
        .contains("| 0.400 |");
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
