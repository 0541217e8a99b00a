package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.parquet.testing.PageHeaders;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** DataPage V2 pages as parquet-java writes them, including pages without a data section. */
@Timeout(60)
class DataPageV2Test {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional double sparse; optional float ratio; }");

  @TempDir Path dir;

  /**
   * A V2 page whose values are all null has no data; older parquet-java writers stored that 0-byte
   * section marked as compressed (a codec would emit a few bytes even for nothing). Nothing is to
   * be decompressed, and the rows are nulls. (BYTE_STREAM_SPLIT values of no rows are 0 bytes;
   * parquet-java's other V2 encodings write a header even then.)
   */
  @ParameterizedTest
  @EnumSource(
      value = CompressionCodecName.class,
      names = {"SNAPPY", "GZIP", "ZSTD", "LZ4_RAW"})
  void pageWithEmptyCompressedDataSectionReadsAsNulls(CompressionCodecName codec)
      throws IOException {
    Path file =
        ParquetTestFiles.write(
            dir.resolve("v2-" + codec + ".parquet"),
            SCHEMA,
            300,
            ParquetTestFiles.WriteSpec.defaults()
                .dictionary(false)
                .version(ParquetProperties.WriterVersion.PARQUET_2_0)
                .codec(codec)
                .pageRowLimit(100),
            true,
            (i, g) -> {
              g.add("id", (long) i);
              if (i >= 100) { // the first page of each optional column holds only nulls
                g.add("sparse", i * 0.5);
                g.add("ratio", i * 0.25f);
              }
            });
    assertThat(PageHeaders.markEmptyV2DataCompressed(file)).isEqualTo(2);
    assertThat(
            PageHeaders.of(file).stream()
                .filter(PageHeaders.Page::isV2WithEmptyCompressedData)
                .count())
        .as("pages with an empty compressed data section")
        .isGreaterThanOrEqualTo(2);

    List<List<Object>> rows;
    try (ReadContext context = ReadContext.defaults()) {
      rows = Rows.read(file, ReadOptions.defaults(), context).rows();
    }
    assertThat(rows).hasSize(300);
    for (int i = 0; i < 300; i++) {
      List<Object> expected =
          i >= 100 ? List.of((long) i, i * 0.5, i * 0.25f) : Arrays.asList((long) i, null, null);
      assertThat(rows.get(i)).as("row " + i).isEqualTo(expected);
    }
    assertThat(rows).isEqualTo(Rows.expected(file));
  }
}
