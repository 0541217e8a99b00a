package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Empty, truncated, corrupt and foreign files, and bad columns: clear errors, no hang. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(30)
class BadInputTest {

  @TempDir Path dir;

  private Path valid(String name, int rows) throws IOException {
    return ParquetTestFiles.write(
        dir.resolve(name),
        SelectionTest.SCHEMA,
        rows,
        ParquetTestFiles.WriteSpec.defaults()
            .codec(CompressionCodecName.UNCOMPRESSED)
            .rowGroupBytes(16 << 10),
        BadInputTest::fill);
  }

  /** Rewrites a file's bytes, dropping the Hadoop checksum file that would catch it first. */
  private static void overwrite(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes);
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }

  private static void fill(int i, Group g) {
    g.add("id", (long) i);
    g.add("label", "l" + i);
    g.add("score", i / 3.0);
  }

  private static long count(Path file, ReadOptions options) throws IOException {
    long rows = 0;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      for (var batch = reader.next(); batch != null; batch = reader.next()) {
        rows += batch.rowCount();
      }
    }
    return rows;
  }

  /**
   * The {@link CorruptFileException} a read raises, itself or as the cause of the runtime's {@code
   * ReadException}; either way the message the caller sees names the file.
   */
  private static CorruptFileException corruption(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable read) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(read);
    assertThat(thrown).isInstanceOf(IOException.class);
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof CorruptFileException corrupt) {
        assertThat(thrown.getMessage()).contains(".parquet");
        return corrupt;
      }
    }
    throw new AssertionError("no CorruptFileException in " + thrown, thrown);
  }

  /**
   * Reading {@code file} fails with a {@link CorruptFileException} whose message names the file and
   * says each of {@code parts}.
   */
  private static void assertCorruptAndNamed(Path file, String... parts) {
    CorruptFileException corrupt = corruption(() -> count(file, ReadOptions.defaults()));
    assertThat(corrupt).hasMessageContaining(file.getFileName().toString());
    for (String part : parts) {
      assertThat(corrupt).hasMessageContaining(part);
    }
  }

  @Test
  void aFileWithZeroRowGroupsReadsNoRows() throws IOException {
    Path file = valid("zero.parquet", 0);
    assertThat(count(file, ReadOptions.builder().minReadBytes(0).parallelism(4).build())).isZero();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, ReadOptions.defaults(), context)) {
      assertThat(reader.schema().size()).isEqualTo(3);
    }
  }

  @Test
  void anEmptyFileIsCorruptAndNamed() throws IOException {
    Path file = Files.createFile(dir.resolve("empty.parquet"));
    assertCorruptAndNamed(file, "empty");
  }

  @Test
  void aFileThatIsNotParquetIsNamed() throws IOException {
    Path file = dir.resolve("text.parquet");
    Files.writeString(file, "id,label\n1,a\n2,b\n".repeat(20), StandardCharsets.UTF_8);
    assertCorruptAndNamed(file, "PAR1");
  }

  @Test
  void aTruncatedFileIsNamed() throws IOException {
    Path file = valid("truncated.parquet", 2000);
    byte[] bytes = Files.readAllBytes(file);
    overwrite(file, Arrays.copyOf(bytes, bytes.length / 2));
    assertCorruptAndNamed(file);
  }

  @Test
  void aFooterLengthBeyondTheFileIsNamed() throws IOException {
    Path file = valid("length.parquet", 2000);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(raf.length() - 8);
      raf.write(new byte[] {(byte) 0xF0, (byte) 0xFF, (byte) 0xFF, 0x7F}); // ~2 GB, little endian
    }
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    assertCorruptAndNamed(file, "footer length");
  }

  @Test
  void garbageFooterBytesAreNamed() throws IOException {
    Path file = valid("garbage.parquet", 2000);
    byte[] bytes = Files.readAllBytes(file);
    int footerLength =
        (bytes[bytes.length - 8] & 0xFF)
            | (bytes[bytes.length - 7] & 0xFF) << 8
            | (bytes[bytes.length - 6] & 0xFF) << 16
            | (bytes[bytes.length - 5] & 0xFF) << 24;
    Arrays.fill(bytes, bytes.length - 8 - footerLength, bytes.length - 8, (byte) 0x7E);
    overwrite(file, bytes);
    assertCorruptAndNamed(file);
  }

  @Test
  void anUnknownColumnNamesTheFileTheColumnAndTheAvailableOnes() throws IOException {
    Path file = valid("columns.parquet", 10);
    assertThatThrownBy(() -> count(file, ReadOptions.builder().columns("id", "nope").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("columns.parquet")
        .hasMessageContaining("'nope'")
        .hasMessageContaining("[id, label, score]");
  }

  @Test
  void aColumnSelectedTwiceIsRejected() throws IOException {
    Path file = valid("twice.parquet", 10);
    assertThatThrownBy(() -> count(file, ReadOptions.builder().columns("id", "id").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("twice.parquet")
        .hasMessageContaining("more than once");
  }

  @Test
  void aPageChecksumMismatchNamesFileRowGroupColumnAndPage() throws IOException {
    Path file = valid("page.parquet", 3000);
    byte[] bytes = Files.readAllBytes(file);
    // Overwrite bytes in the middle of the first row group's data with noise.
    for (int i = 200; i < 1200; i++) {
      bytes[i] = (byte) (i * 31);
    }
    overwrite(file, bytes);
    assertThatThrownBy(
            () ->
                count(
                    file,
                    ReadOptions.builder()
                        .minReadBytes(0)
                        .parallelism(2)
                        .verifyChecksums(true)
                        .build()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("page.parquet")
        .hasMessageContaining("row group 0")
        .hasMessageContaining("column id, page 0")
        .hasMessageContaining("CRC");
  }
}
