package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.orc.testing.OrcSurgery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORC files whose metadata parses but states sizes and counts that do not fit the file: each read
 * ends in a {@link CorruptFileException} that names the file, the stripe or column and what is
 * wrong, before orc-core allocates or the planner plans anything from the bad size (never an {@link
 * OutOfMemoryError}, never millions of ranges).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcSizeChecksTest {

  private static final int ROWS = 3_000;
  private static final TypeDescription SCHEMA =
      TypeDescription.fromString("struct<id:bigint,lst:array<int>,s:string,cat:string>");

  /** Column ids in {@link #SCHEMA} (0 is the struct, 3 the list's element). */
  private static final int LIST = 2;

  private static final int STRING = 4;
  private static final int CATEGORY = 5;
  private static final long TWO_TO_THE_50 = 1L << 50;

  @TempDir Path dir;

  @Test
  void validFilesReadWhole() throws IOException {
    assertThat(rows(write("valid.orc", CompressionKind.NONE), options())).isEqualTo(ROWS);
    assertThat(rows(write("valid-zlib.orc", CompressionKind.ZLIB), options())).isEqualTo(ROWS);
  }

  @Test
  void aRewrittenFileWithoutEditsStillReadsWhole() throws IOException {
    Path file =
        edited("same.orc", CompressionKind.ZLIB, surgery -> surgery.rewrite(null, null, null));
    assertThat(rows(file, options())).isEqualTo(ROWS);
  }

  @Test
  void aStripeClaimingTwoToTheFiftyRowsFailsBeforeAnyRangeIsPlanned() throws IOException {
    Path file =
        footerEdited(
            "rows.orc",
            CompressionKind.NONE,
            footer ->
                footer
                    .setNumberOfRows(TWO_TO_THE_50)
                    .setStripes(
                        0, footer.getStripes(0).toBuilder().setNumberOfRows(TWO_TO_THE_50)));
    assertCorrupt(file, "stripe 0", TWO_TO_THE_50 + " rows", "row index");
  }

  @Test
  void theStripesRowCountsWinOverAFootersThatDisagrees() throws IOException {
    // orc-core reads what the stripes hold whatever the footer says; so does the reader.
    Path file =
        footerEdited("sum.orc", CompressionKind.NONE, footer -> footer.setNumberOfRows(ROWS + 1));
    assertThat(rows(file, options())).isEqualTo(ROWS);
    assertThat(rows(file, options().toBuilder().prefetchEnabled(false).build())).isEqualTo(ROWS);
  }

  @Test
  void aFooterLongerThanTheFileIsCorrupt() throws IOException {
    Path file =
        postScriptEdited("footer.orc", CompressionKind.ZLIB, ps -> ps.setFooterLength(1L << 40));
    assertCorrupt(file, "footer of " + (1L << 40), "more than the file of");
  }

  @Test
  void aCompressionBlockBeyondTheFormatsLimitIsCorrupt() throws IOException {
    Path file =
        postScriptEdited(
            "block.orc", CompressionKind.ZLIB, ps -> ps.setCompressionBlockSize(1L << 30));
    assertCorrupt(file, "compression block size " + (1L << 30));
  }

  @Test
  void aStripeOutsideTheFileIsCorrupt() throws IOException {
    Path file =
        footerEdited(
            "stripe.orc",
            CompressionKind.NONE,
            footer ->
                footer.setStripes(0, footer.getStripes(0).toBuilder().setDataLength(1L << 40)));
    assertCorrupt(file, "stripe 0", "data of " + (1L << 40));
  }

  @Test
  void aStreamLongerThanItsStripeIsCorrupt() throws IOException {
    Path file =
        stripeFootersEdited(
            "stream.orc",
            CompressionKind.ZLIB,
            (stripe, footer) ->
                footer.setStreams(
                    footer.getStreamsCount() - 1,
                    footer.getStreams(footer.getStreamsCount() - 1).toBuilder()
                        .setLength(1L << 40)));
    assertCorrupt(file, "stripe 0", "stream of " + (1L << 40) + " bytes");
  }

  @Test
  void aDictionaryLargerThanItsStreamsIsCorrupt() throws IOException {
    Path source = write("dictionary.orc", CompressionKind.ZLIB);
    assertThat(
            new OrcSurgery(Files.readAllBytes(source))
                .stripeFooter(0)
                .getColumns(CATEGORY)
                .getKind())
        .isEqualTo(OrcProto.ColumnEncoding.Kind.DICTIONARY_V2);
    Path file =
        edit(
            source,
            "huge-dictionary.orc",
            surgery ->
                surgery.rewrite(
                    (stripe, footer) ->
                        footer.setColumns(
                            CATEGORY,
                            footer.getColumns(CATEGORY).toBuilder().setDictionarySize(1 << 30)),
                    null,
                    null));
    assertCorrupt(file, "stripe 0", "column " + CATEGORY, "dictionary of " + (1 << 30));
  }

  /** Found by the structure fuzzer: a stride of 2^32 - 1 read as -1 seeked to row entry -808. */
  @Test
  void aRowIndexStrideBeyondTheFormatsLimitIsCorrupt() throws IOException {
    Path file =
        footerEdited("stride.orc", CompressionKind.SNAPPY, footer -> footer.setRowIndexStride(-1));
    assertCorrupt(file, "row index stride " + 0xFFFFFFFFL);
  }

  /**
   * Found by the structure fuzzer: a string column whose LENGTH stream is labelled DATA has no
   * length stream, and orc-core's seek into the stripe fails with a NullPointerException.
   */
  @Test
  void aStreamOfTheWrongKindFailsTheSeekAsACorruptFile() throws IOException {
    Path file =
        stripeFootersEdited(
            "kind.orc",
            CompressionKind.NONE,
            (stripe, footer) -> {
              for (int i = 0; i < footer.getStreamsCount(); i++) {
                OrcProto.Stream stream = footer.getStreams(i);
                if (stream.getColumn() == STRING
                    && stream.getKind() == OrcProto.Stream.Kind.LENGTH) {
                  footer.setStreams(i, stream.toBuilder().setKind(OrcProto.Stream.Kind.DATA));
                }
              }
            });
    ReadOptions fromRow349 =
        options().toBuilder()
            .rowRanges(java.util.List.of(new dev.prefetch.RowRange(349, 440)))
            .build();
    for (boolean prefetch : new boolean[] {false, true}) {
      assertThatThrownBy(() -> rows(file, fromRow349.toBuilder().prefetchEnabled(prefetch).build()))
          .satisfies(
              e ->
                  assertThat(corruptCause(e).getMessage()).contains("edited-kind.orc", "stripe 0"));
    }
  }

  @Test
  void listLengthsBeyondTheMemoryBoundAreCorruptNotAnOutOfMemoryError() throws IOException {
    Path file = overwriteLengths(write("list.orc", CompressionKind.NONE), "huge-list.orc", LIST);
    assertCorrupt(file, "stripe 0", "column " + LIST, "elements");
  }

  @Test
  void stringLengthsBeyondTheMemoryBoundAreCorruptNotAnOutOfMemoryError() throws IOException {
    Path source = write("string.orc", CompressionKind.NONE);
    assertThat(
            new OrcSurgery(Files.readAllBytes(source)).stripeFooter(0).getColumns(STRING).getKind())
        .isEqualTo(OrcProto.ColumnEncoding.Kind.DIRECT_V2);
    Path file = overwriteLengths(source, "huge-string.orc", STRING);
    assertCorrupt(file, "stripe 0", "column " + STRING, "bytes");
  }

  @Test
  void aValidFileWhoseListsOutgrowWhatTheBudgetAllowsOneBatchIsRefusedAsTooLargeNotAsCorrupt()
      throws IOException {
    Path file = writeLongLists("long-lists.orc", 200, 20_000);
    // 50 rows of 20,000 elements: a million elements, more than 1 MiB allows one batch (9 bytes
    // each at least), though the file is valid.
    ReadOptions tight = options().toBuilder().maxBufferedBytes(1 << 20).batchSize(50).build();
    for (boolean prefetch : new boolean[] {false, true}) {
      ReadOptions options = tight.toBuilder().prefetchEnabled(prefetch).build();
      assertThatThrownBy(() -> rows(file, options))
          .isInstanceOf(ReadException.class)
          .isNotInstanceOf(CorruptFileException.class)
          .satisfies(
              e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                  assertThat(t).isNotInstanceOf(CorruptFileException.class);
                }
                assertThat(e.getCause())
                    .isInstanceOf(dev.prefetch.orc.internal.reader.BatchTooLargeException.class)
                    .hasMessageContaining("long-lists.orc")
                    .hasMessageContaining("column " + LIST)
                    .hasMessageContaining("prefetch.max-buffered-bytes")
                    .hasMessageContaining("read.batch-size");
              });
      // Batches the budget holds read the same file whole.
      assertThat(rows(file, options.toBuilder().batchSize(5).build())).isEqualTo(200);
    }
  }

  /** A valid file of {@code rows} rows whose lists hold {@code length} elements each. */
  private Path writeLongLists(String name, int rows, int length) throws IOException {
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(new Configuration()).setSchema(SCHEMA).rowIndexStride(1000);
    return writeRows(
        name,
        options,
        SCHEMA.createRowBatch(10),
        rows,
        row -> length,
        (row, e) -> e,
        row -> "s",
        row -> "c");
  }

  /**
   * Overwrites {@code column}'s LENGTH stream with short-repeat runs of ten lengths of 2^26 (and
   * runs of zeros in the bytes left): a batch then claims billions of elements or bytes.
   */
  private Path overwriteLengths(Path source, String name, int column) throws IOException {
    byte[] bytes = Files.readAllBytes(source);
    OrcSurgery surgery = new OrcSurgery(bytes);
    int at = (int) surgery.streamOffset(0, column, OrcProto.Stream.Kind.LENGTH);
    assertThat(at).isPositive();
    long length = -1;
    for (OrcProto.Stream stream : surgery.stripeFooter(0).getStreamsList()) {
      if (stream.getColumn() == column && stream.getKind() == OrcProto.Stream.Kind.LENGTH) {
        length = stream.getLength();
      }
    }
    int end = at + (int) length;
    byte[] huge = {0x1F, 0x04, 0x00, 0x00, 0x00}; // SHORT_REPEAT, 4 bytes wide, 10 times 2^26
    while (end - at >= huge.length + 2 || end - at == huge.length) {
      System.arraycopy(huge, 0, bytes, at, huge.length);
      at += huge.length;
    }
    if ((end - at) % 2 == 1) {
      bytes[at++] = 0x08; // SHORT_REPEAT, 2 bytes wide, 3 times 0
      bytes[at++] = 0;
      bytes[at++] = 0;
    }
    while (at < end) {
      bytes[at++] = 0x00; // SHORT_REPEAT, 1 byte wide, 3 times 0
      bytes[at++] = 0;
    }
    return Files.write(dir.resolve(name), bytes);
  }

  private interface Edit {
    byte[] apply(OrcSurgery surgery) throws IOException;
  }

  /** {@code name} written with {@code codec}, then edited into {@code "edited-" + name}. */
  private Path edited(String name, CompressionKind codec, Edit edit) throws IOException {
    return edit(write(name, codec), "edited-" + name, edit);
  }

  private Path footerEdited(
      String name, CompressionKind codec, Consumer<OrcProto.Footer.Builder> footer)
      throws IOException {
    return edited(name, codec, surgery -> surgery.rewrite(null, footer, null));
  }

  private Path postScriptEdited(
      String name, CompressionKind codec, Consumer<OrcProto.PostScript.Builder> postScript)
      throws IOException {
    return edited(name, codec, surgery -> surgery.rewrite(null, null, postScript));
  }

  private Path stripeFootersEdited(
      String name, CompressionKind codec, OrcSurgery.StripeFooterEdit stripeFooters)
      throws IOException {
    return edited(name, codec, surgery -> surgery.rewrite(stripeFooters, null, null));
  }

  private Path edit(Path source, String name, Edit edit) throws IOException {
    return Files.write(dir.resolve(name), edit.apply(new OrcSurgery(Files.readAllBytes(source))));
  }

  private static ReadOptions options() {
    return ReadOptions.builder()
        .prefetchEnabled(true)
        .minReadBytes(0)
        .parallelism(2)
        .maxBufferedBytes(16 << 20)
        .batchSize(50)
        .build();
  }

  private static void assertCorrupt(Path file, String... parts) {
    for (boolean prefetch : new boolean[] {false, true}) {
      ReadOptions options = options().toBuilder().prefetchEnabled(prefetch).build();
      assertThatThrownBy(() -> rows(file, options))
          .isInstanceOfSatisfying(
              java.io.IOException.class,
              e ->
                  assertThat(corruptCause(e).getMessage())
                      .contains(file.getFileName().toString())
                      .contains(parts));
    }
  }

  private static Throwable corruptCause(Throwable e) {
    Throwable cause = e;
    while (!(cause instanceof CorruptFileException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    assertThat(cause).isInstanceOf(CorruptFileException.class);
    return cause;
  }

  private static long rows(Path file, ReadOptions options) throws IOException {
    long rows = 0;
    try (BatchReader reader = Readers.open(DataFile.of(file), options, ReadContext.defaults())) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
      }
    }
    return rows;
  }

  private Path write(String name, CompressionKind codec) throws IOException {
    Configuration conf = new Configuration();
    OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(conf, 0.5);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf).setSchema(SCHEMA).compress(codec).rowIndexStride(1000);
    return writeRows(
        name,
        options,
        SCHEMA.createRowBatch(),
        ROWS,
        row -> row % 4,
        (row, e) -> row * 10L + e,
        row -> "row-" + row,
        row -> "c" + row % 3);
  }

  /** The value of element {@code e} of row {@code row}'s list. */
  private interface ElementValue {
    long at(int row, int e);
  }

  /**
   * Writes {@code rows} rows of {@link #SCHEMA}: the row's index, a list of {@code length(row)}
   * elements {@code element(row, e)}, a string and a category.
   */
  private Path writeRows(
      String name,
      OrcFile.WriterOptions options,
      VectorizedRowBatch batch,
      int rows,
      IntUnaryOperator length,
      ElementValue element,
      IntFunction<String> string,
      IntFunction<String> category)
      throws IOException {
    Path file = dir.resolve(name);
    try (Writer writer =
        OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()), options)) {
      LongColumnVector id = (LongColumnVector) batch.cols[0];
      ListColumnVector list = (ListColumnVector) batch.cols[1];
      LongColumnVector elements = (LongColumnVector) list.child;
      BytesColumnVector strings = (BytesColumnVector) batch.cols[2];
      BytesColumnVector categories = (BytesColumnVector) batch.cols[3];
      for (int row = 0; row < rows; row++) {
        int i = batch.size++;
        id.vector[i] = row;
        int n = length.applyAsInt(row);
        list.offsets[i] = list.childCount;
        list.lengths[i] = n;
        elements.ensureSize((int) list.childCount + n, true);
        for (int e = 0; e < n; e++) {
          elements.vector[(int) list.childCount++] = element.at(row, e);
        }
        strings.setVal(i, string.apply(row).getBytes(StandardCharsets.UTF_8));
        categories.setVal(i, category.apply(row).getBytes(StandardCharsets.UTF_8));
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
          list.childCount = 0;
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    return file;
  }
}
