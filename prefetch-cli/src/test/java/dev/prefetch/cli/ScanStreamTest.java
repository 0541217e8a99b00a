package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import dev.prefetch.testkit.gen.ParquetGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scan} of several files: one stream by default (one result, the files counted, the checksum
 * of all their rows in order), one result per file with {@code --per-file}. The three files are
 * consecutive pieces of one generated table, which is also written whole.
 */
@Timeout(180)
class ScanStreamTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long[] PIECE_ROWS = {7_000, 5_000, 9_000};

  @TempDir static Path dir;

  static Path whole;
  static List<Path> pieces = new ArrayList<>();

  @BeforeAll
  static void writeFiles() throws IOException {
    long total = 0;
    for (long rows : PIECE_ROWS) {
      total += rows;
    }
    whole = dir.resolve("whole.parquet");
    Generator.write(spec(total), whole);
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    long first = 0;
    for (int i = 0; i < PIECE_ROWS.length; i++) {
      Path piece = dir.resolve("part-" + i + ".parquet");
      ParquetGenerator.write(
          spec(PIECE_ROWS[i]), new org.apache.hadoop.fs.Path(piece.toUri()), conf, first);
      first += PIECE_ROWS[i];
      pieces.add(piece);
    }
  }

  private static GenSpec spec(long rows) {
    return GenSpec.inRowGroups("parquet", GenSpec.Kind.SCAN, rows, 1, 16 << 10, "snappy", 31);
  }

  private static List<JsonNode> scanJson(List<String> options, List<Path> files)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("scan", "--json"));
    args.addAll(options);
    for (Path file : files) {
      args.add(file.toString());
    }
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : r.out().strip().lines().toList()) {
      lines.add(MAPPER.readTree(line));
    }
    return lines;
  }

  private static JsonNode scanOne(List<String> options, Path file) throws IOException {
    List<JsonNode> lines = scanJson(options, List.of(file));
    assertThat(lines).hasSize(1);
    return lines.get(0);
  }

  @Test
  void severalFilesAreOneStreamWhoseChecksumIsThatOfTheirRowsInOneFile() throws IOException {
    String wholeChecksum = scanOne(List.of(), whole).get("checksum").asText();
    for (List<String> options :
        List.of(
            List.of("--no-prefetch"),
            List.of("--threads", "2", "--conf", "prefetch.min-read-bytes=0"))) {
      List<JsonNode> lines = scanJson(options, pieces);
      assertThat(lines).as("one result for the stream").hasSize(1);
      JsonNode stream = lines.get(0);
      assertThat(stream.get("rows").asLong()).isEqualTo(21_000);
      assertThat(stream.get("fileCount").asInt()).isEqualTo(3);
      List<String> files = new ArrayList<>();
      stream.get("files").forEach(f -> files.add(f.asText()));
      assertThat(files).containsExactly(pieces.get(0) + "", pieces.get(1) + "", pieces.get(2) + "");
      assertThat(stream.get("file").asText()).isEqualTo(pieces.get(0) + " (+2 more)");
      assertThat(stream.get("format").asText()).isEqualTo("parquet");
      assertThat(stream.get("checksum").asText()).isEqualTo(wholeChecksum);
      assertThat(stream.get("prefetch").get("enabled").asBoolean())
          .isEqualTo(!options.contains("--no-prefetch"));
      assertThat(stream.get("prefetch").get("ranges").asLong()).isEqualTo(3);
    }
  }

  @Test
  void theStreamFollowsTheOrderOfTheFileArguments() throws IOException {
    JsonNode forward = scanJson(List.of(), pieces).get(0);
    JsonNode backward =
        scanJson(List.of(), List.of(pieces.get(2), pieces.get(1), pieces.get(0))).get(0);
    assertThat(backward.get("rows").asLong()).isEqualTo(forward.get("rows").asLong());
    assertThat(backward.get("checksum").asText()).isNotEqualTo(forward.get("checksum").asText());
    assertThat(backward.get("files").get(0).asText()).isEqualTo(pieces.get(2).toString());
  }

  @Test
  void perFileKeepsOneResultPerFileWithItsOwnFigures() throws IOException {
    List<JsonNode> lines = scanJson(List.of("--per-file"), pieces);
    assertThat(lines).hasSize(3);
    for (int i = 0; i < 3; i++) {
      JsonNode line = lines.get(i);
      assertThat(line.get("file").asText()).isEqualTo(pieces.get(i).toString());
      assertThat(line.get("fileCount").asInt()).isEqualTo(1);
      assertThat(line.get("rows").asLong()).isEqualTo(PIECE_ROWS[i]);
      assertThat(line.get("checksum").asText())
          .isEqualTo(scanOne(List.of(), pieces.get(i)).get("checksum").asText());
    }
  }

  @Test
  void aRepeatedStreamReportsEveryRunOfTheWholeStream() throws IOException {
    List<JsonNode> lines = scanJson(List.of("--repeat", "2", "--cache-bytes", "1m"), pieces);
    assertThat(lines).hasSize(1);
    JsonNode stream = lines.get(0);
    assertThat(stream.get("secondsEach")).hasSize(2);
    assertThat(stream.get("rows").asLong()).isEqualTo(21_000);
    // every timed open of each of the three files: a miss on the warm-up, hits afterwards
    assertThat(stream.get("cache").get("hits").asLong()).isGreaterThanOrEqualTo(6);
  }

  @Test
  void theTextTableShowsOneRowForTheStreamAndCountsTheFiles() {
    List<String> args = new ArrayList<>(List.of("scan"));
    pieces.forEach(p -> args.add(p.toString()));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().strip().lines().toList();
    assertThat(lines.get(0)).startsWith("file");
    assertThat(lines.get(1)).contains("(+2 more)", "21,000");
    // the rest are the result's details, indented: none is a row of its own
    assertThat(lines.subList(2, lines.size()))
        .allSatisfy(line -> assertThat(line).startsWith("  "));
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains(
                        "files: 3 in one stream",
                        pieces.get(0).toString(),
                        pieces.get(2).toString()));
  }

  @Test
  void aStreamDoesNotCutEachSmallFileForEveryProducer() throws IOException {
    // Two files of one row group of more than 2 MiB each: alone, each is cut into page-aligned
    // slices for the two producers; in a stream the other file keeps the second producer busy.
    List<Path> large = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path file = dir.resolve("large-" + i + ".parquet");
      Generator.write(
          GenSpec.inRowGroups("parquet", GenSpec.Kind.SCAN, 60_000, 1, 16 << 10, "none", 32 + i),
          file);
      large.add(file);
    }
    List<String> twoProducers = List.of("--threads", "2", "--conf", "prefetch.min-read-bytes=0");
    for (Path file : large) {
      assertThat(scanOne(twoProducers, file).get("prefetch").get("ranges").asLong())
          .as("ranges of %s read alone", file)
          .isGreaterThan(1);
    }
    JsonNode stream = scanJson(twoProducers, large).get(0);
    assertThat(stream.get("prefetch").get("enabled").asBoolean()).isTrue();
    assertThat(stream.get("prefetch").get("ranges").asLong()).isEqualTo(2);
    assertThat(stream.get("rows").asLong()).isEqualTo(120_000);
  }
}
