package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** scan, compare and verify on small generated ORC files, through the real ORC format. */
@Timeout(120)
class EndToEndOrcTest {

  @TempDir static Path dir;

  static Path scan;
  static Path nested;

  @BeforeAll
  static void writeFiles() throws IOException {
    scan = dir.resolve("scan.orc");
    // Eight stripes, so that prefetching has ranges to spread over producers.
    Generator.write(
        GenSpec.inRowGroups("orc", GenSpec.Kind.SCAN, 40_000, 8, 64 << 10, "zstd", 11), scan);
    nested = dir.resolve("nested.orc");
    Generator.write(
        GenSpec.inRowGroups("orc", GenSpec.Kind.NESTED, 20_000, 4, 64 << 10, "snappy", 12), nested);
  }

  @Test
  void scanJsonReportsEveryDocumentedField() {
    Cli.Result r =
        Cli.run(
            "scan",
            "--json",
            "--threads",
            "3",
            "--conf",
            "prefetch.min-read-bytes=0",
            "--cache-bytes",
            "1m",
            "--repeat",
            "2",
            scan.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    String json = r.out().strip();
    assertThat(json.lines().count()).isEqualTo(1);
    assertThat(json)
        .startsWith("{")
        .endsWith("}")
        .contains(
            "\"file\":\"" + scan + "\"",
            "\"format\":\"orc\"",
            "\"rows\":40000",
            "\"columns\":12",
            "\"batches\":",
            "\"bytesRead\":",
            "\"seconds\":",
            "\"secondsEach\":[",
            "\"rowsPerSecond\":",
            "\"checksum\":\"",
            "\"prefetch\":{\"enabled\":true,\"parallelism\":3,\"ranges\":",
            "\"cache\":{\"enabled\":true,\"hits\":",
            "\"misses\":",
            "\"bypasses\":",
            "\"evictions\":");
    assertThat(r.err()).isEmpty();
    // The warm-up open loads the tail; both timed opens find it in the shared cache.
    assertThat(json).contains("\"hits\":2,\"misses\":0");
    assertThat(json.replaceAll(".*\"secondsEach\":\\[([^\\]]*)\\].*", "$1").split(",")).hasSize(2);
  }

  @Test
  void compareChecksumsAgreeAcrossContendersAndThreadCounts() {
    String checksum = null;
    for (String threads : List.of("1", "2", "4")) {
      Cli.Result r =
          Cli.run(
              "compare",
              "--json",
              "--repeat",
              "1",
              "--threads",
              threads,
              "--conf",
              "prefetch.min-read-bytes=0",
              "--batch-size",
              "1000",
              scan.toString());
      assertThat(r.exitCode()).as(r.err()).isZero();
      List<String> lines = r.out().strip().lines().toList();
      assertThat(lines).hasSize(3);
      assertThat(lines.get(0)).contains("\"contender\":\"single\"");
      assertThat(lines.get(1)).contains("\"contender\":\"prefetch(" + threads + ")\"");
      assertThat(lines.get(2)).contains("\"contender\":\"orc-core\"");
      for (String line : lines) {
        assertThat(line).contains("\"checksumsAgree\":true", "\"rows\":40000");
        String sum = line.replaceAll(".*\"checksum\":\"([0-9a-f]+)\".*", "$1");
        if (checksum == null) {
          checksum = sum;
        }
        assertThat(sum).isEqualTo(checksum);
      }
    }
  }

  @Test
  void verifyPassesOnNestedData() {
    Cli.Result r =
        Cli.run(
            "verify", "--threads", "2", "--conf", "prefetch.min-read-bytes=0", nested.toString());
    assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains("OK, 20000 rows x 5 columns");
  }

  @Test
  void rowSelectionAndProjectionReadOnlyThoseRowsAndColumns() {
    Cli.Result r =
        Cli.run(
            "verify",
            "--json",
            "--rows",
            "12345:23456",
            "--columns",
            "customer,amount,ts",
            scan.toString());
    assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains("\"rows\":11111", "\"columns\":3", "\"ok\":true");
  }

  @Test
  void filterPrunesStripesAndAgreesWithTheLibrary() {
    Cli.Result all = Cli.run("scan", "--json", scan.toString());
    Cli.Result some =
        Cli.run("compare", "--json", "--repeat", "1", "--filter", "id < 5000", scan.toString());
    assertThat(some.exitCode()).as(some.err()).isZero();
    long allRows = Long.parseLong(all.out().replaceAll("(?s).*\"rows\":(\\d+).*", "$1"));
    long someRows =
        Long.parseLong(
            some.out().lines().findFirst().orElseThrow().replaceAll(".*\"rows\":(\\d+).*", "$1"));
    assertThat(someRows).isLessThan(allRows).isGreaterThanOrEqualTo(5000);
  }

  @Test
  void remoteModelAddsItsLatencyToEveryScan() {
    Cli.Result r =
        Cli.run("scan", "--json", "--remote", "--no-prefetch", "--columns", "id", scan.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    double seconds =
        Double.parseDouble(r.out().strip().replaceAll(".*\"seconds\":([0-9.e-]+),.*", "$1"));
    // At least the tail and one stripe: two requests of 20 ms each.
    assertThat(seconds).isGreaterThanOrEqualTo(0.04);
  }

  @Test
  void simulatedStorageStillReadsTheSameValues() {
    Cli.Result r =
        Cli.run(
            "compare",
            "--json",
            "--repeat",
            "1",
            "--latency-ms",
            "2",
            "--bandwidth-mbps",
            "512",
            "--columns",
            "id,category",
            scan.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"checksumsAgree\":true");
  }
}
