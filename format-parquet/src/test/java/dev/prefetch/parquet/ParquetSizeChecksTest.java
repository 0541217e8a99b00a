package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.parquet.testing.ParquetSurgery;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parquet files whose footer and page headers parse but state sizes and counts that do not fit the
 * file: each read ends in a {@link CorruptFileException} naming the file, row group, column and
 * what is wrong, before parquet-hadoop allocates from the bad size (never an {@link
 * OutOfMemoryError}, which no code of ours catches any more).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParquetSizeChecksTest {

  private static final int ROWS = 2_000;
  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional binary s (UTF8); }");

  @TempDir Path dir;

  @Test
  void validFilesAndTheirRewritesReadWhole() throws IOException {
    for (CompressionCodecName codec :
        List.of(
            CompressionCodecName.GZIP,
            CompressionCodecName.SNAPPY,
            CompressionCodecName.UNCOMPRESSED)) {
      Path file = write("valid-" + codec + ".parquet", codec);
      assertThat(rows(file, options(false))).isEqualTo(ROWS);
      Path same = edit(file, "same-" + codec + ".parquet", (group, column, page, header) -> {});
      assertThat(rows(same, options(true))).isEqualTo(ROWS);
    }
  }

  @Test
  void aLastPageClaimingTwoGigabytesFailsBeforeParquetHadoopAllocatesThem() throws IOException {
    Path source = write("last.parquet", CompressionCodecName.GZIP);
    int lastPage = new ParquetSurgery(Files.readAllBytes(source)).pages(0, 1).size() - 1;
    Path file =
        pageEdited(
            source,
            "last-page-2g.parquet",
            1,
            lastPage,
            header -> header.setCompressed_page_size(Integer.MAX_VALUE - 100));
    assertCorrupt(
        file, "row group 0", "column 's'", "claims " + (Integer.MAX_VALUE - 100) + " bytes");
  }

  /** A page header that claims more than its column chunk holds, and what the error says. */
  static Stream<Arguments> pageHeadersClaimingTooMuch() {
    Consumer<PageHeader> pastTheChunk =
        header -> header.setCompressed_page_size(header.getCompressed_page_size() + 100_000);
    Consumer<PageHeader> pastTheExpansion =
        header -> header.setUncompressed_page_size(Integer.MAX_VALUE - 8);
    Consumer<PageHeader> moreValues =
        header -> header.getData_page_header().setNum_values(Integer.MAX_VALUE);
    Consumer<PageHeader> moreValuesBehindLargeStatistics =
        header ->
            header
                .getData_page_header()
                .setNum_values(Integer.MAX_VALUE)
                .setStatistics(
                    new Statistics().setMin_value(new byte[5_000]).setMax_value(new byte[5_000]));
    return Stream.of(
        Arguments.of(
            "a compressed size past its column chunk",
            CompressionCodecName.SNAPPY,
            0,
            0,
            pastTheChunk,
            List.of("column 'id'", "left of its column chunk")),
        Arguments.of(
            "an uncompressed size beyond the codec's expansion",
            CompressionCodecName.GZIP,
            0,
            1,
            pastTheExpansion,
            List.of("column 'id'", (Integer.MAX_VALUE - 8) + " uncompressed bytes")),
        Arguments.of(
            "a value count beyond the chunk's",
            CompressionCodecName.UNCOMPRESSED,
            1,
            0,
            moreValues,
            List.of("column 's'", Integer.MAX_VALUE + " values")),
        Arguments.of(
            "a value count beyond the chunk's, in a header longer than its first read window",
            CompressionCodecName.SNAPPY,
            1,
            2,
            moreValuesBehindLargeStatistics,
            List.of("column 's'", Integer.MAX_VALUE + " values")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pageHeadersClaimingTooMuch")
  void aPageHeaderClaimingMoreThanThePageCanHoldIsCorrupt(
      String claim,
      CompressionCodecName codec,
      int column,
      int page,
      Consumer<PageHeader> edit,
      List<String> message)
      throws IOException {
    Path file =
        pageEdited(codec + "-" + column + "-" + page + ".parquet", codec, column, page, edit);
    assertCorrupt(file, message.toArray(String[]::new));
  }

  /**
   * parquet-hadoop reads a row group's chunks into buffers of at most {@code
   * parquet.read.allocation.size} bytes; at 100 bytes, page headers lie across two buffers, and are
   * checked from a copy of their bytes.
   */
  @Test
  void pageHeadersAcrossTwoReadBuffersAreCheckedAsWell() throws IOException {
    Configuration smallBuffers = new Configuration();
    smallBuffers.setInt("parquet.read.allocation.size", 100);
    Path valid = write("small-buffers.parquet", CompressionCodecName.SNAPPY);
    assertThat(rows(valid, options(false), smallBuffers)).isEqualTo(ROWS);
    assertThat(rows(valid, options(true), smallBuffers)).isEqualTo(ROWS);
    Path file =
        pageEdited(
            "small-buffers-values.parquet",
            CompressionCodecName.UNCOMPRESSED,
            1,
            2,
            header -> header.getData_page_header().setNum_values(Integer.MAX_VALUE));
    assertCorrupt(smallBuffers, file, "column 's'", Integer.MAX_VALUE + " values");
  }

  /**
   * A footer length field says up to 4 GiB, which fits a file over 2 GiB but no array: a corrupt
   * file, not a negative array size. The file is sparse, so it takes no disk space.
   */
  @Test
  void aFooterLengthBeyondTwoGigabytesInAFileOverTwoGigabytesIsCorrupt() throws IOException {
    Path file = dir.resolve("sparse-3g.parquet");
    long length = 3L << 30;
    try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
      out.setLength(length);
      out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
      out.seek(length - 8);
      long footer = (2L << 30) + 12; // more than an array holds, less than the file
      out.write(
          new byte[] {
            (byte) footer, (byte) (footer >> 8), (byte) (footer >> 16), (byte) (footer >> 24)
          });
      out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
    }
    assertCorrupt(file, "footer length " + ((2L << 30) + 12));
  }

  private interface Edit extends ParquetSurgery.PageEdit {}

  /**
   * {@code source} rewritten as {@code name}, the header of page {@code page} of column {@code
   * column} changed by {@code edit}.
   */
  private Path pageEdited(Path source, String name, int column, int page, Consumer<PageHeader> edit)
      throws IOException {
    return edit(
        source,
        name,
        (group, c, p, header) -> {
          if (c == column && p == page) {
            edit.accept(header);
          }
        });
  }

  /** As above, on a file written as {@code name} and rewritten as {@code "edited-" + name}. */
  private Path pageEdited(
      String name, CompressionCodecName codec, int column, int page, Consumer<PageHeader> edit)
      throws IOException {
    return pageEdited(write(name, codec), "edited-" + name, column, page, edit);
  }

  private Path edit(Path source, String name, Edit edit) throws IOException {
    byte[] rewritten = new ParquetSurgery(Files.readAllBytes(source)).rewrite(edit, null);
    return Files.write(dir.resolve(name), rewritten);
  }

  private static ReadOptions options(boolean prefetch) {
    return ReadOptions.builder()
        .prefetchEnabled(prefetch)
        .minReadBytes(0)
        .parallelism(2)
        .batchSize(300)
        .build();
  }

  private static void assertCorrupt(Path file, String... parts) {
    assertCorrupt(new Configuration(), file, parts);
  }

  private static void assertCorrupt(Configuration conf, Path file, String... parts) {
    for (boolean prefetch : new boolean[] {false, true}) {
      assertThatThrownBy(() -> rows(file, options(prefetch), conf))
          .isInstanceOfSatisfying(
              IOException.class,
              e -> {
                Throwable cause = e;
                while (!(cause instanceof CorruptFileException) && cause.getCause() != null) {
                  cause = cause.getCause();
                }
                assertThat(cause).isInstanceOf(CorruptFileException.class);
                assertThat(cause.getMessage())
                    .contains(file.getFileName().toString())
                    .contains(parts);
              });
    }
  }

  private static long rows(Path file, ReadOptions options) throws IOException {
    return rows(file, options, new Configuration());
  }

  private static long rows(Path file, ReadOptions options, Configuration conf) throws IOException {
    long rows = 0;
    try (ReadContext context = ReadContext.builder().configuration(conf).build();
        BatchReader reader = Readers.open(DataFile.of(file), options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
      }
    }
    return rows;
  }

  private Path write(String name, CompressionCodecName codec) throws IOException {
    Path file = dir.resolve(name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(SCHEMA)
            .withCompressionCodec(codec)
            .withDictionaryEncoding(false)
            .withPageRowCountLimit(500)
            .build()) {
      for (int row = 0; row < ROWS; row++) {
        Group group = groups.newGroup().append("id", (long) row);
        if (row % 7 != 0) {
          group.append("s", "value-" + row);
        }
        writer.write(group);
      }
    }
    return file;
  }
}
