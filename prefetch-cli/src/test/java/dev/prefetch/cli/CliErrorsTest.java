package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad input ends with one clear line on stderr and its documented exit code. */
class CliErrorsTest {

  @TempDir static Path dir;

  static Path parquet;

  @BeforeAll
  static void writeFile() throws IOException {
    parquet = dir.resolve("small.parquet");
    Generator.write(GenSpec.scan("parquet", 100), parquet);
  }

  private static void assertOneLine(Cli.Result r, int code, String... fragments) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(code);
    String err = r.err().strip();
    assertThat(err).startsWith("prefetch-scan: ");
    assertThat(err.lines().count()).as(err).isEqualTo(1);
    assertThat(err).doesNotContain("\tat ");
    for (String f : fragments) {
      assertThat(err).contains(f);
    }
  }

  @Test
  void missingFileIsAReadErrorNamingTheFile() {
    String missing = dir.resolve("nope.parquet").toString();
    for (String command : new String[] {"scan", "compare", "verify"}) {
      assertOneLine(Cli.run(command, missing), 3, missing, "no such file");
    }
  }

  @Test
  void directoryIsAReadErrorNamingIt() {
    assertOneLine(Cli.run("scan", dir.toString()), 3, dir.toString(), "directory");
  }

  @Test
  void fileOfNoKnownFormatIsAReadErrorNamingIt() throws IOException {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "hello, this is not a columnar file\n");
    assertOneLine(
        Cli.run("scan", text.toString()), 3, text.toString(), "not a Parquet or ORC file");
    Path empty = dir.resolve("empty.parquet");
    Files.write(empty, new byte[0]);
    assertOneLine(Cli.run("verify", empty.toString()), 3, empty.toString());
  }

  @Test
  void truncatedFilesAreReadErrorsNamingThem() throws IOException {
    for (String format : new String[] {"parquet", "orc"}) {
      Path whole = dir.resolve("whole." + format);
      Generator.write(GenSpec.scan(format, 5000), whole);
      byte[] bytes = Files.readAllBytes(whole);
      Path truncated = dir.resolve("truncated." + format);
      Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
      for (String command : new String[] {"scan", "compare", "verify"}) {
        Cli.Result r = Cli.run(command, truncated.toString());
        assertOneLine(r, 3, truncated.getFileName().toString());
        assertThat(r.out()).as(command).isEmpty();
      }
    }
  }

  @Test
  void unknownColumnIsAUsageErrorNamingFileAndColumn() {
    assertOneLine(
        Cli.run("scan", "--columns", "id,nope", parquet.toString()),
        2,
        parquet.getFileName().toString(),
        "nope");
  }

  @Test
  void unknownOptionIsAUsageError() {
    assertOneLine(Cli.run("scan", "--bogus", parquet.toString()), 2, "--bogus");
  }

  @Test
  void badOptionValuesAreUsageErrors() {
    String f = parquet.toString();
    assertOneLine(Cli.run("scan", "--threads", "many", f), 2, "--threads");
    assertOneLine(Cli.run("scan", "--threads", "0", f), 2, "--threads");
    assertOneLine(Cli.run("scan", "--batch-size", "-5", f), 2, "--batch-size");
    assertOneLine(Cli.run("scan", "--repeat", "0", f), 2, "--repeat");
    assertOneLine(Cli.run("scan", "--rows", "10-20", f), 2, "--rows");
    assertOneLine(Cli.run("scan", "--rows", "20:10", f), 2, "--rows");
    assertOneLine(Cli.run("scan", "--conf", "prefetch.nonsense=1", f), 2, "prefetch.nonsense");
    assertOneLine(
        Cli.run("scan", "--conf", "prefetch.parallelism=zero", f), 2, "prefetch.parallelism");
    assertOneLine(Cli.run("scan", "--filter", "qty about 5", f), 2, "--filter");
    assertOneLine(Cli.run("scan", "--latency-ms", "-1", f), 2, "--latency-ms");
  }

  @Test
  void compareAndVerifyRefuseRowsTogetherWithAFilterNamingTheCommand() {
    String f = parquet.toString();
    for (String command : new String[] {"compare", "verify"}) {
      assertOneLine(
          Cli.run(command, "--rows", "0:10", "--filter", "qty = 5", f),
          2,
          "--rows and --filter cannot be combined in " + command);
    }
  }

  @Test
  void filterOnAnUnknownColumnOrWithAWronglyTypedValueIsAUsageError() {
    String f = parquet.toString();
    assertOneLine(Cli.run("scan", "--filter", "nope = 3", f), 2, "nope");
    assertOneLine(Cli.run("scan", "--filter", "qty = abc", f), 2, "abc", "qty");
  }

  @Test
  void rowGroupsOutsideTheFileOrOnOrcAreUsageErrors() throws IOException {
    assertOneLine(
        Cli.run("scan", "--row-groups", "0,7", parquet.toString()),
        2,
        parquet.toString(),
        "7",
        "does not exist");
    Path orc = dir.resolve("small.orc");
    Generator.write(GenSpec.scan("orc", 100), orc);
    assertOneLine(
        Cli.run("verify", "--row-groups", "0", orc.toString()),
        2,
        orc.toString(),
        "Parquet files only");
  }

  @Test
  void missingCommandOrFileIsAUsageError() {
    assertOneLine(Cli.run(), 2, "command");
    assertOneLine(Cli.run("scan"), 2, "FILE");
  }

  @Test
  void genRejectsBadParameters() {
    String out = dir.resolve("x.parquet").toString();
    assertOneLine(Cli.run("gen", "--format", "csv", "--rows", "10", out), 2, "csv");
    assertOneLine(
        Cli.run("gen", "--format", "orc", "--codec", "brotli", "--rows", "10", out), 2, "brotli");
    assertOneLine(
        Cli.run("gen", "--format", "orc", "--kind", "tall", "--rows", "10", out), 2, "tall");
    assertOneLine(Cli.run("gen", "--format", "parquet", "--rows", "-1", out), 2, "rows");
    assertThat(Files.exists(Path.of(out))).isFalse();
  }

  @Test
  void verboseAddsTheStackTrace() {
    Cli.Result r = Cli.run("scan", "--verbose", dir.resolve("nope.orc").toString());
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.err()).contains("no such file").contains("\tat ");
  }

  @Test
  void genWritesTheFileAndReportsIt() {
    Path out = dir.resolve("gen.orc");
    Cli.Result r =
        Cli.run(
            "gen",
            "--format",
            "orc",
            "--kind",
            "nested",
            "--rows",
            "500",
            "--json",
            out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"rows\":500").contains("\"format\":\"orc\"");
    assertThat(Files.exists(out)).isTrue();
  }
}
