package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.parquet.testing.WritingCodecs;
import dev.prefetch.parquet.testing.WritingCodecs.Lz4Framing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Codecs as other writers compress pages: legacy LZ4 in both framings, BROTLI, GZIP of concatenated
 * members. parquet-hadoop reads neither LZ4 (it needs lz4-java) nor BROTLI, so the values are
 * checked against what was written.
 */
@Timeout(60)
class PageCodecsTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional binary text (UTF8); optional double x; }");
  static final int ROWS = 3_000;

  @TempDir Path dir;

  private static void fill(int i, Group g) {
    g.add("id", (long) i * 31);
    if (i % 7 != 0) {
      // long enough that a page holds more than one 64 KiB Hadoop block
      g.add("text", "row " + i + " " + "abcdefghij".repeat(1 + i % 5));
    }
    g.add("x", i / 8.0);
  }

  private static List<Object> expected(int i) {
    return Arrays.asList(
        (long) i * 31,
        i % 7 != 0 ? "row " + i + " " + "abcdefghij".repeat(1 + i % 5) : null,
        i / 8.0);
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource({
    "LZ4, HADOOP, PARQUET_1_0", "LZ4, RAW, PARQUET_1_0", "LZ4, HADOOP, PARQUET_2_0",
    "LZ4, RAW, PARQUET_2_0", "BROTLI, HADOOP, PARQUET_1_0", "BROTLI, HADOOP, PARQUET_2_0"
  })
  void pagesOfCodecsParquetHadoopCannotReadAreRead(
      CompressionCodecName codec, Lz4Framing framing, WriterVersion version) throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve(codec + "-" + framing + "-" + version + ".parquet"),
            SCHEMA,
            ROWS,
            new ParquetTestFiles.WriteSpec(false, version, codec, 1 << 20, 256 << 10, 3_000)
                .codecs(new WritingCodecs(framing, false, false)),
            PageCodecsTest::fill);
    assertThat(readAll(file)).isEqualTo(expectedRows());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"PARQUET_1_0", "PARQUET_2_0"})
  void gzipPagesOfConcatenatedMembersAreReadWhole(WriterVersion version) throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve("gzip-members-" + version + ".parquet"),
            SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.GZIP)
                .version(version)
                .codecs(new WritingCodecs(Lz4Framing.HADOOP, true, false)),
            PageCodecsTest::fill);
    assertThat(readAll(file)).isEqualTo(expectedRows()).isEqualTo(Rows.expected(file));
  }

  private static List<List<Object>> expectedRows() {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(expected(i));
    }
    return rows;
  }

  private static List<List<Object>> readAll(Path file) throws IOException {
    try (ReadContext context = ReadContext.defaults()) {
      return Rows.read(file, ReadOptions.builder().parallelism(2).build(), context).rows();
    }
  }
}
