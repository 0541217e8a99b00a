package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** scan, compare, verify and demo on small generated Parquet files, through the real format. */
@Timeout(180)
class EndToEndParquetTest {

  @TempDir static Path dir;

  static Path scan;
  static Path nested;

  @BeforeAll
  static void writeFiles() throws IOException {
    scan = dir.resolve("scan.parquet");
    Generator.write(
        GenSpec.inRowGroups("parquet", GenSpec.Kind.SCAN, 40_000, 6, 16 << 10, "zstd", 21), scan);
    nested = dir.resolve("nested.parquet");
    Generator.write(
        GenSpec.inRowGroups("parquet", GenSpec.Kind.NESTED, 20_000, 4, 16 << 10, "snappy", 22),
        nested);
  }

  private static String field(String json, String name) {
    return json.strip().replaceAll(".*?\"" + name + "\":\"?([^\",}]*)\"?.*", "$1");
  }

  @Test
  void compareChecksumsAgreeAcrossContendersAndThreadCounts() {
    String checksum = null;
    for (String threads : List.of("1", "3")) {
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
              "777",
              scan.toString(),
              nested.toString());
      assertThat(r.exitCode()).as(r.err()).isZero();
      List<String> lines = r.out().strip().lines().toList();
      assertThat(lines).hasSize(6);
      assertThat(lines.get(1))
          .contains("\"contender\":\"prefetch(" + threads + ")\"", "\"enabled\":true");
      assertThat(lines.get(2)).contains("\"contender\":\"parquet-hadoop\"");
      for (String line : lines.subList(0, 3)) {
        assertThat(line).contains("\"checksumsAgree\":true", "\"rows\":40000");
        if (checksum == null) {
          checksum = field(line, "checksum");
        }
        assertThat(field(line, "checksum")).isEqualTo(checksum);
      }
      for (String line : lines.subList(3, 6)) {
        assertThat(line).contains("\"checksumsAgree\":true", "\"rows\":20000", "\"columns\":5");
      }
    }
  }

  @Test
  void scanJsonOfSeveralFilesPerFilePrintsOneObjectEach() {
    Cli.Result r =
        Cli.run(
            "scan",
            "--json",
            "--per-file",
            "--columns",
            "id,tags",
            "--cache-bytes",
            "4m",
            "--repeat",
            "3",
            nested.toString(),
            scan.toString().replace("scan.parquet", "nested.parquet"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    assertThat(lines).hasSize(2);
    for (String line : lines) {
      assertThat(line)
          .contains(
              "\"format\":\"parquet\"",
              "\"rows\":20000",
              "\"columns\":2",
              "\"cache\":{\"enabled\":true");
      assertThat(field(line, "secondsEach")).isNotEmpty();
      // every timed run's process CPU: three runs, none unavailable (-1); a scan this small may
      // take less than one tick of the OS's accounting (10 ms on Linux), so zero is possible
      String cpuEach = line.replaceAll(".*\"cpuSecondsEach\":\\[([^\\]]*)\\].*", "$1");
      assertThat(cpuEach.split(","))
          .hasSize(3)
          .allSatisfy(cpu -> assertThat(Double.parseDouble(cpu)).isNotNegative());
      assertThat(Double.parseDouble(field(line, "cpuSeconds"))).isNotNegative();
    }
    assertThat(field(lines.get(0), "checksum")).isEqualTo(field(lines.get(1), "checksum"));
  }

  /** Scans column id of row group 2 three times after a warm-up, as JSON, with {@code options}. */
  private static Cli.Result scanIdsThreeTimes(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("scan", "--json", "--repeat", "3", "--row-groups", "2", "--columns", "id"));
    args.addAll(List.of(options));
    args.add(scan.toString());
    return Cli.run(args.toArray(String[]::new));
  }

  @Test
  void scanJsonCountsFooterReadsAndACacheSavesThemOnReopen() {
    Cli.Result plain = scanIdsThreeTimes();
    assertThat(plain.exitCode()).as(plain.err()).isZero();
    assertThat(field(plain.out(), "footerReads")).isEqualTo("3");
    long footerBytes = Long.parseLong(field(plain.out(), "footerBytesRead"));
    assertThat(footerBytes).isPositive();
    // The warm-up open fills the cache: the three timed opens read no footer from storage.
    Cli.Result cached = scanIdsThreeTimes("--cache-bytes", "16m");
    assertThat(cached.exitCode()).as(cached.err()).isZero();
    assertThat(field(cached.out(), "footerReads")).isEqualTo("0");
    assertThat(field(cached.out(), "footerBytesRead")).isEqualTo("0");
    assertThat(field(cached.out(), "checksum")).isEqualTo(field(plain.out(), "checksum"));
    Cli.Result text = Cli.run("scan", "--repeat", "2", "--columns", "id", scan.toString());
    assertThat(text.out())
        .contains(
            "footer: 2 reads, "
                + String.format(java.util.Locale.ROOT, "%,d", footerBytes * 2 / 3)
                + " bytes over 2 open(s)");
  }

  @Test
  void verifyPassesOnNestedAndFlatDataWithAProjectionAndARowRange() {
    Cli.Result r =
        Cli.run(
            "verify",
            "--threads",
            "2",
            "--conf",
            "prefetch.min-read-bytes=0",
            nested.toString(),
            scan.toString());
    assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains("OK, 20000 rows x 5 columns", "OK, 40000 rows x 12 columns");
    Cli.Result some =
        Cli.run(
            "verify",
            "--json",
            "--rows",
            "5000:31234",
            "--columns",
            "comment,events,ts",
            scan.toString().replace("scan.parquet", "nested.parquet"));
    assertThat(some.exitCode()).as(some.err()).isEqualTo(2);
    // The range starts and ends inside pages of every column, strings included.
    Cli.Result slice =
        Cli.run(
            "verify",
            "--json",
            "--rows",
            "5000:31234",
            "--columns",
            "code,ts,amount,comment,category,customer",
            scan.toString());
    assertThat(slice.exitCode()).as(slice.err() + slice.out()).isZero();
    assertThat(slice.out()).contains("\"rows\":26234", "\"columns\":6", "\"ok\":true");
  }

  @Test
  void rowRangeStartingInsidePlainByteArrayPagesEqualsTheLibrary() throws IOException {
    Path plain = dir.resolve("plain.parquet");
    Generator.write(
        new GenSpec(
            "parquet",
            GenSpec.Kind.SCAN,
            40_000,
            0,
            6,
            GenSpec.DEFAULT_ROW_GROUP_BYTES,
            16 << 10,
            "zstd",
            false,
            true,
            true,
            23),
        plain);
    for (String threads : List.of("1", "3")) {
      Cli.Result r =
          Cli.run(
              "verify",
              "--json",
              "--threads",
              threads,
              "--conf",
              "prefetch.min-read-bytes=0",
              "--rows",
              "5000:31234",
              plain.toString());
      assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
      assertThat(r.out()).contains("\"rows\":26234", "\"columns\":12", "\"ok\":true");
    }
  }

  @Test
  void rowGroupSelectionReadsExactlyThoseRowGroups() {
    Cli.Result r = Cli.run("scan", "--json", "--row-groups", "4,1", scan.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    // Six row groups of ceil(40000 / 6) = 6667 rows, the last one shorter.
    assertThat(field(r.out(), "rows")).isEqualTo(String.valueOf(2 * 6667));
    Cli.Result verify = Cli.run("verify", "--row-groups", "1,4", scan.toString());
    assertThat(verify.exitCode()).as(verify.err()).isZero();
    assertThat(verify.out()).contains("OK, 13334 rows");
  }

  @Test
  void simulatedStorageIsSlowerButReadsTheSameValues() {
    Cli.Result local = Cli.run("scan", "--json", "--no-prefetch", scan.toString());
    Cli.Result remote =
        Cli.run("scan", "--json", "--no-prefetch", "--latency-ms", "30", scan.toString());
    assertThat(remote.exitCode()).as(remote.err()).isZero();
    assertThat(field(remote.out(), "checksum")).isEqualTo(field(local.out(), "checksum"));
    // The file is small enough to be read whole: one request, which pays the latency once.
    assertThat(Double.parseDouble(field(remote.out(), "seconds"))).isGreaterThanOrEqualTo(0.03);
  }

  @Test
  void demoGeneratesReusesAndComparesBothFormats() throws IOException {
    Path demo = dir.resolve("demo");
    Cli.Result first =
        Cli.run("demo", "--dir", demo.toString(), "--rows", "30000", "--repeat", "1");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out())
        .contains(
            "generated " + demo.resolve("scan.parquet"),
            "generated " + demo.resolve("scan.orc"),
            "single",
            "prefetch",
            "format library",
            "checksums agree");
    long modified = Files.getLastModifiedTime(demo.resolve("scan.parquet")).toMillis();
    Cli.Result second =
        Cli.run("demo", "--dir", demo.toString(), "--rows", "30000", "--repeat", "1", "--json");
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out().strip().lines())
        .hasSize(6)
        .allSatisfy(line -> assertThat(line).contains("\"checksumsAgree\":true"));
    assertThat(Files.getLastModifiedTime(demo.resolve("scan.parquet")).toMillis())
        .isEqualTo(modified);
  }
}
