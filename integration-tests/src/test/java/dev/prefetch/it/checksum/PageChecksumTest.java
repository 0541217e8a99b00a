package dev.prefetch.it.checksum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.it.Scans;
import dev.prefetch.it.Scans.Result;
import dev.prefetch.it.TestFiles;
import dev.prefetch.testing.ReaderThreads;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Page checksums end to end: a Parquet file written with {@code
 * parquet.page.write-checksum.enabled} whose one data page is corrupted reads as a clear error
 * naming the file, row group, column and page when {@code read.verify-checksums=true}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PageChecksumTest {

  private static final int ROW_GROUP = 1;

  @TempDir Path dir;

  private Path file;
  private Path corrupt;

  /** Index of the corrupted page within its column chunk (a dictionary page comes first). */
  private int corruptPage;

  private long corruptPageOffset;

  @BeforeEach
  void writeAndCorrupt() throws IOException {
    file =
        TestFiles.parquet(
            dir.resolve("checksummed.parquet"),
            TestFiles.ParquetVariant.FLAT_UNCOMPRESSED_DICTIONARY_V2,
            TestFiles.DEFAULT_ROWS,
            true);
    long pageStart;
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      ColumnChunkMetaData id = reader.getFooter().getBlocks().get(ROW_GROUP).getColumns().get(0);
      assertThat(id.getPath().toDotString()).isEqualTo("id");
      pageStart = id.getFirstDataPageOffset();
      corruptPage =
          id.hasDictionaryPage()
                  && id.getDictionaryPageOffset() > 0
                  && id.getDictionaryPageOffset() < pageStart
              ? 1
              : 0;
      corruptPageOffset = pageStart;
    }
    byte[] bytes = Files.readAllBytes(file);
    // Inside the first data page's values: past its header, halfway through its payload (the
    // page may be short, so a fixed distance from the header could land in the next column).
    ByteArrayInputStream in =
        new ByteArrayInputStream(bytes, (int) pageStart, bytes.length - (int) pageStart);
    PageHeader header = Util.readPageHeader(in);
    int payloadStart = bytes.length - in.available();
    bytes[payloadStart + header.getCompressed_page_size() / 2] ^= 0x10;
    corrupt = dir.resolve("corrupt.parquet");
    Files.write(corrupt, bytes);
  }

  @AfterEach
  void noLeaks() {
    ReaderThreads.assertNoneAlive();
  }

  private static org.apache.hadoop.fs.Path hadoop(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  @Test
  void anIntactChecksummedFileReadsTheSameWithAndWithoutVerification() throws IOException {
    Result plain = Scans.readAll(hadoop(file), Scans.single(), ReadContext.defaults());
    Result verified =
        Scans.readAll(
            hadoop(file),
            Scans.prefetching(4).verifyChecksums(true).build(),
            ReadContext.defaults());
    // One reader through every row group: parquet-hadoop's checksum verifier keeps a buffer of
    // the reader's allocator across row groups, which must never serve a later chunk read.
    Result verifiedByOneReader =
        Scans.readAll(
            hadoop(file),
            ReadOptions.builder()
                .prefetchEnabled(false)
                .batchSize(500)
                .verifyChecksums(true)
                .build(),
            ReadContext.defaults());
    assertThat(verified).isEqualTo(plain);
    assertThat(verifiedByOneReader).isEqualTo(plain);
    assertThat(plain.rows()).isEqualTo(TestFiles.DEFAULT_ROWS);
  }

  /** Verifying reads of the single reader and of prefetching producers. */
  static Stream<ReadOptions> verifyingReads() {
    return Stream.of(
        ReadOptions.builder().prefetchEnabled(false).verifyChecksums(true).build(),
        Scans.prefetching(4).verifyChecksums(true).build());
  }

  private Throwable readCorrupt(ReadOptions options) {
    return catchThrowable(() -> Scans.readAll(hadoop(corrupt), options, ReadContext.defaults()));
  }

  @ParameterizedTest
  @MethodSource("verifyingReads")
  void aCorruptPageFailsVerificationAsAChecksumErrorNamingFileAndRowGroup(ReadOptions options) {
    Throwable thrown = readCorrupt(options);
    assertThat(thrown)
        .as("%s", options)
        .isInstanceOf(ReadException.class)
        .hasMessageContaining("corrupt.parquet")
        .hasCauseInstanceOf(CorruptFileException.class);
    String message = thrown.getCause().getMessage();
    assertThat(message).containsIgnoringCase("checksum");
    assertThat(message).contains("row group " + ROW_GROUP);
  }

  @ParameterizedTest
  @MethodSource("verifyingReads")
  void aChecksumErrorAlsoNamesTheColumnAndPage(ReadOptions options) {
    Throwable thrown = readCorrupt(options);
    assertThat(thrown).as("%s", options).hasCauseInstanceOf(CorruptFileException.class);
    assertThat(thrown.getCause().getMessage())
        .as("%s", options)
        .contains("corrupt.parquet")
        .contains("row group " + ROW_GROUP)
        .contains("column id, page " + corruptPage + " at offset " + corruptPageOffset);
  }

  @Test
  void withoutVerificationTheCorruptPageIsNotCheckedAgainstItsChecksum() {
    Throwable thrown =
        catchThrowable(
            () ->
                Scans.readAll(
                    hadoop(corrupt),
                    ReadOptions.builder().prefetchEnabled(false).verifyChecksums(false).build(),
                    ReadContext.defaults()));
    if (thrown != null) {
      assertThat(thrown.toString()).doesNotContainIgnoringCase("checksum");
    }
  }
}
