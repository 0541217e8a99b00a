package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.RecordReaderImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ORC files whose integer runs ask for more bytes than their stream holds, or whose null masks
 * announce more values than the data stream holds: orc-core's decoders would spin on them without
 * end (ignoring interrupts); here each read ends at once in a {@link CorruptFileException} naming
 * the file and stripe, on the single reader and with producers, and leaves no thread behind.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcCorruptRunTest {

  private static final int ROWS = 5_000;
  private static final int STRIDE = 1_000;
  private static final TypeDescription SCHEMA =
      TypeDescription.fromString("struct<constant:bigint,sparse:double>");

  /** Column ids in {@link #SCHEMA} (0 is the struct). */
  private static final int CONSTANT = 1;

  private static final int SPARSE = 2;

  /** The time one read of a corrupt file may take, far below the minutes orc-core would spin. */
  private static final long READ_BOUND_MILLIS = 5_000;

  @TempDir Path dir;

  @AfterEach
  void noReaderThreadLeft() {
    assertThat(ReaderThreads.live()).isEmpty();
  }

  /**
   * An RLE v2 DIRECT run of 512 values of 64 bits (4,096 bytes) at the start of a constant column's
   * stream of a few dozen bytes: the decoder's loop over blocks of 8 values.
   */
  @ParameterizedTest(name = "prefetch {0}")
  @ValueSource(booleans = {false, true})
  void runLongerThanItsStreamFailsNamingFileAndStripe(boolean prefetch) throws IOException {
    Path file = write("long-run.orc");
    overwriteStream(file, CONSTANT, OrcProto.Stream.Kind.DATA, 0, new byte[] {0x7f, (byte) 0xff});
    assertCorrupt(file, options(prefetch));
  }

  /**
   * An RLE v2 DIRECT run of 3 values of 16 bits at the last byte but one of the stream, reached
   * through valid runs: the decoder's loop over the values after the last block of 8.
   */
  @ParameterizedTest(name = "prefetch {0}")
  @ValueSource(booleans = {false, true})
  void shortRunAtTheStreamEndFailsNamingFileAndStripe(boolean prefetch) throws IOException {
    Path file = write("short-run.orc");
    int length = streamLength(file, CONSTANT, OrcProto.Stream.Kind.DATA);
    byte[] runs = new byte[length];
    int at = 0;
    if ((length - 2) % 2 != 0) {
      runs[at++] = 0x08; // SHORT_REPEAT of 3 values of 2 bytes
      runs[at++] = 0;
      runs[at++] = 5;
    }
    while (at < length - 2) {
      runs[at++] = 0x00; // SHORT_REPEAT of 3 values of 1 byte
      runs[at++] = 5;
    }
    runs[at++] = 0x5e; // DIRECT, 16 bits, 3 values: 6 bytes, of which the stream holds none
    runs[at] = 0x02;
    overwriteStream(file, CONSTANT, OrcProto.Stream.Kind.DATA, 0, runs);
    assertCorrupt(file, options(prefetch));
  }

  /**
   * A null mask that says every row has a value, over a double column with few values: skipping
   * rows to reach a range's start skips past the end of the data stream.
   */
  @Test
  void skipPastTheDataOfANullMaskSayingAllPresentFailsNamingFileAndStripe() throws IOException {
    Path file = write("all-present.orc");
    // Byte RLE: a run of 130 bytes of 0xff, 1,040 rows present.
    overwriteStream(file, SPARSE, OrcProto.Stream.Kind.PRESENT, 0, new byte[] {0x7f, (byte) 0xff});
    ReadOptions options =
        options(false).toBuilder().rowRanges(List.of(new RowRange(500, ROWS))).build();
    assertCorrupt(file, options);
  }

  @Test
  void uncorruptedFileReadsEveryRow() throws IOException {
    Path file = write("valid.orc");
    for (boolean prefetch : new boolean[] {false, true}) {
      long rows = 0;
      try (BatchReader reader = Readers.open(file, options(prefetch), ReadContext.defaults())) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          rows += batch.rowCount();
        }
      }
      assertThat(rows).isEqualTo(ROWS);
    }
  }

  private static ReadOptions options(boolean prefetch) {
    ReadOptions.Builder options = ReadOptions.builder().prefetchEnabled(prefetch).batchSize(333);
    if (prefetch) {
      options.parallelism(2).minReadBytes(0).property(OrcOptions.NATURAL_READ_SIZE, "1");
    }
    return options.build();
  }

  private static void assertCorrupt(Path file, ReadOptions options) throws IOException {
    long start = System.nanoTime();
    try (BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
      assertThatThrownBy(
              () -> {
                while (reader.next() != null) {
                  // read to the end or the error
                }
              })
          .isInstanceOf(ReadException.class)
          .hasRootCauseInstanceOf(dev.prefetch.orc.internal.io.CorruptStreamException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasMessageContaining("stripe 0")
          .cause()
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("column ")
          .hasMessageContaining("the stream ends");
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
        .isLessThan(READ_BOUND_MILLIS);
  }

  /**
   * One uncompressed stripe: a constant bigint (runs of a few bytes each) and a double that is null
   * but in every 100th row (a null mask, few values).
   */
  private Path write(String name) throws IOException {
    Path file = dir.resolve(name);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(SCHEMA)
                .compress(CompressionKind.NONE)
                .rowIndexStride(STRIDE))) {
      VectorizedRowBatch batch = SCHEMA.createRowBatch();
      LongColumnVector constant = (LongColumnVector) batch.cols[0];
      DoubleColumnVector sparse = (DoubleColumnVector) batch.cols[1];
      for (int row = 0; row < ROWS; row++) {
        int r = batch.size++;
        constant.vector[r] = 42;
        sparse.vector[r] = row;
        sparse.isNull[r] = row % 100 != 0;
        sparse.noNulls = false;
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    return file;
  }

  private static int streamLength(Path file, int column, OrcProto.Stream.Kind kind)
      throws IOException {
    return Math.toIntExact(stream(file, column, kind)[1]);
  }

  /** Offset in the file and length of the stream of stripe 0. */
  private static long[] stream(Path file, int column, OrcProto.Stream.Kind kind)
      throws IOException {
    try (Reader reader =
            OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.readerOptions(new Configuration()));
        RecordReaderImpl rows = (RecordReaderImpl) reader.rows()) {
      StripeInformation stripe = reader.getStripes().get(0);
      long offset = stripe.getOffset();
      for (OrcProto.Stream stream : rows.readStripeFooter(stripe).getStreamsList()) {
        if (stream.getColumn() == column && stream.getKind() == kind) {
          return new long[] {offset, stream.getLength()};
        }
        offset += stream.getLength();
      }
    }
    throw new IllegalArgumentException("No " + kind + " stream of column " + column);
  }

  private static void overwriteStream(
      Path file, int column, OrcProto.Stream.Kind kind, int at, byte[] bytes) throws IOException {
    long[] stream = stream(file, column, kind);
    assertThat((long) at + bytes.length).isLessThanOrEqualTo(stream[1]);
    byte[] content = Files.readAllBytes(file);
    System.arraycopy(bytes, 0, content, Math.toIntExact(stream[0] + at), bytes.length);
    Files.write(file, content);
    // Hadoop's local filesystem would otherwise refuse the changed bytes by its checksum file.
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }
}
