package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.orc.testing.OrcSurgery;
import dev.prefetch.orc.testing.OrcWriterCorpus;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.FileFormatException;
import org.apache.orc.OrcProto;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each size check of the reader on the files of other writers: a valid file that the check refused
 * before it followed the format (and orc-core and the C++ reader), which now reads equal to
 * orc-core, and a corrupt file of the same kind that the check still refuses with a {@link
 * CorruptFileException} naming the file and what is wrong.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcOtherWritersChecksTest {

  @TempDir static Path dir;

  static List<OrcWriterFile> corpus;

  @BeforeAll
  static void writeCorpus() throws IOException {
    corpus = OrcWriterCorpus.write(dir.resolve("corpus"));
  }

  private static Path path(String name) {
    return corpus.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().path();
  }

  // ------------------------------------------------------------- stripes against the file's tail

  /**
   * The C++ writer's content length leaves out the 3-byte header, so its last stripe ends 3 bytes
   * past it: refused before as "outside the ... bytes of stripes", in every multi-stripe file of
   * that writer and in its single stripe at offset 3.
   */
  @Test
  void stripesThatEndPastTheCppWritersContentLengthReadWhole() throws IOException {
    for (String name :
        List.of(
            "cpp/cpp-types-zstd.orc", "cpp/cpp-stripes-zstd.orc", "cpp/cpp-single-stripe.orc")) {
      assertReadsAsOrcCore(path(name));
    }
  }

  /** Trino's writer sets no content length at all: the tail's start bounds its stripes. */
  @Test
  void stripesOfAFileWithoutContentLengthReadWhole() throws IOException {
    Path file = path("trino/trino-types-zlib.orc");
    assertThat(new OrcSurgery(Files.readAllBytes(file)).footer().hasContentLength()).isFalse();
    assertReadsAsOrcCore(file);
  }

  /** One byte more and the last stripe's footer reaches into the tail: corrupt. */
  @Test
  void aStripeReachingIntoTheTailIsCorrupt() throws IOException {
    Path file =
        edited(
            "cpp/cpp-types-zstd.orc",
            "into-tail.orc",
            surgery ->
                surgery.rewrite(
                    null,
                    footer -> {
                      int last = footer.getStripesCount() - 1;
                      var stripe = footer.getStripes(last);
                      footer.setStripes(
                          last, stripe.toBuilder().setDataLength(stripe.getDataLength() + 1));
                    },
                    null));
    assertCorrupt(file, "stripe 7", "before the file's tail");
  }

  /** A stripe that starts inside the header (the first stripe is at offset 3 at the earliest). */
  @Test
  void aStripeInsideTheHeaderIsCorrupt() throws IOException {
    Path file =
        edited(
            "cpp/cpp-single-stripe.orc",
            "in-header.orc",
            surgery ->
                surgery.rewrite(
                    null,
                    footer -> footer.setStripes(0, footer.getStripes(0).toBuilder().setOffset(1)),
                    null));
    assertCorrupt(file, "stripe 0", "it lies at 1");
  }

  // ------------------------------------------------------------------- compression block size

  /** No block size in the postscript: the default (256 KiB), as orc-core and the C++ reader. */
  @Test
  void aPostscriptWithoutCompressionBlockSizeReadsWithTheDefault() throws IOException {
    Path file = path("legacy/orc-no-compression-block-size.orc");
    assertThat(new OrcSurgery(Files.readAllBytes(file)).postScript().hasCompressionBlockSize())
        .isFalse();
    assertReadsAsOrcCore(file);
  }

  /**
   * A block size of 0 is read as the default too. orc-core 2.3.1 refuses it at open (ORC-2188, like
   * the C++ reader since): a chunk of a compressed stream never fits 0 bytes, so no reader ever
   * read such a file as stated; read with the default, its chunks fit, and the values are those of
   * the same file with the default written out, which orc-core reads.
   */
  @Test
  void aCompressionBlockSizeOfZeroReadsWithTheDefault() throws IOException {
    Path source = path("legacy/orc-no-compression-block-size.orc");
    Path file = edited(source, "zero-block.orc", ps -> ps.setCompressionBlockSize(0));
    assertThatThrownBy(() -> orcCoreRows(file))
        .as("orc-core 2.3.1 refuses a stated block size of 0")
        .isInstanceOf(FileFormatException.class)
        .hasMessageContaining("Invalid compression block size: 0");
    assertThat(ours(file, false)).isEqualTo(orcCoreRows(source));
  }

  /** A block larger than a chunk header can state (23 bits): corrupt. */
  @Test
  void aCompressionBlockBeyondTheChunkHeadersReachIsCorrupt() throws IOException {
    Path source = path("legacy/orc-no-compression-block-size.orc");
    Path file = edited(source, "huge-block.orc", ps -> ps.setCompressionBlockSize(1 << 23));
    assertCorrupt(file, "compression block size " + (1 << 23));
  }

  /** A block size smaller than the stripes' chunks: their chunks do not fit, a corrupt file. */
  @Test
  void chunksLargerThanTheStatedBlockSizeAreCorrupt() throws IOException {
    Path source = path("legacy/orc-no-compression-block-size.orc");
    Path file = edited(source, "small-block.orc", ps -> ps.setCompressionBlockSize(64));
    assertCorrupt(file, "does not parse", "more than the file's compression block size of 64");
  }

  // ------------------------------------------------------------- row index stride and row index

  /**
   * A stride in the footer but no row index in any stripe (orc-core before ORC-1362 with the index
   * turned off): refused before as "more than its row index of 0 bytes can describe"; the file has
   * no index, so each stripe is one range.
   */
  @Test
  void aStrideWithoutARowIndexReadsAsAFileWithoutIndex() throws IOException {
    Path file = path("legacy/orc-stride-without-row-index.orc");
    assertThat(new OrcSurgery(Files.readAllBytes(file)).footer().getRowIndexStride())
        .isEqualTo(1000);
    assertReadsAsOrcCore(file);
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, prefetching(), context)) {
      Rows.ours(reader);
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(2); // its two stripes
    }
  }

  /** One stripe of an indexed file without its index: corrupt (orc-core cannot seek in it). */
  @Test
  void aStripeWithoutTheIndexItsFileHasIsCorrupt() throws IOException {
    Path file =
        edited(
            "cpp/cpp-types-zlib.orc",
            "one-unindexed.orc",
            surgery ->
                surgery.rewrite(
                    null,
                    footer -> {
                      var stripe = footer.getStripes(2);
                      footer.setStripes(
                          2,
                          stripe.toBuilder()
                              .setIndexLength(0)
                              .setDataLength(stripe.getIndexLength() + stripe.getDataLength()));
                    },
                    null));
    assertCorrupt(file, "stripe 2", "no row index", "other stripes have one");
  }

  // ------------------------------------------------------------------- the first ORC format

  /**
   * No magic in the postscript (the first ORC format): refused before as "Invalid postscript
   * length", since orc-core's tail parser wants the magic there; the header says "ORC".
   */
  @Test
  void aFileOfTheFirstFormatReadsByItsHeader() throws IOException {
    Path file = path("legacy/orc-first-format.orc");
    assertThat(new OrcSurgery(Files.readAllBytes(file)).postScript().hasMagic()).isFalse();
    assertReadsAsOrcCore(file);
  }

  /** Neither magic in the postscript nor the header: not an ORC file. */
  @Test
  void aFileWithoutMagicAnywhereIsNotOrc() throws IOException {
    byte[] bytes = Files.readAllBytes(path("legacy/orc-first-format.orc"));
    bytes[0] = 'X';
    Path file = Files.write(dir.resolve("no-magic.orc"), bytes);
    assertCorrupt(file, "no ORC magic");
  }

  /** A postscript magic that is not "ORC": not an ORC file. */
  @Test
  void aPostscriptWithOtherMagicIsNotOrc() throws IOException {
    Path file =
        edited(path("legacy/orc-first-format.orc"), "other-magic.orc", ps -> ps.setMagic("ORX"));
    assertCorrupt(file, "magic 'ORX'");
  }

  // ------------------------------------------------------------------------------------ helpers

  private interface Edit {
    byte[] apply(OrcSurgery surgery) throws IOException;
  }

  private static Path edited(String fixture, String name, Edit edit) throws IOException {
    byte[] bytes = Files.readAllBytes(path(fixture));
    return Files.write(dir.resolve(name), edit.apply(new OrcSurgery(bytes)));
  }

  private static Path edited(
      Path source, String name, Consumer<OrcProto.PostScript.Builder> postScript)
      throws IOException {
    OrcSurgery surgery = new OrcSurgery(Files.readAllBytes(source));
    return Files.write(dir.resolve(name), surgery.rewrite(null, null, postScript));
  }

  private static ReadOptions prefetching() {
    return ReadOptions.builder()
        .parallelism(2)
        .minReadBytes(0)
        .batchSize(100)
        .property(OrcOptions.NATURAL_READ_SIZE, "1")
        .build();
  }

  private static List<Rows.Row> ours(Path file, boolean prefetch) throws IOException {
    ReadOptions options =
        prefetch ? prefetching() : ReadOptions.builder().prefetchEnabled(false).build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      return Rows.ours(reader);
    }
  }

  private static List<Rows.Row> orcCoreRows(Path file) throws IOException {
    return Rows.reference(file, List.of(), null, new Configuration(), null);
  }

  private static void assertReadsAsOrcCore(Path file) throws IOException {
    List<Rows.Row> expected = orcCoreRows(file);
    assertThat(expected).isNotEmpty();
    for (boolean prefetch : new boolean[] {false, true}) {
      assertThat(ours(file, prefetch)).as("%s, prefetch %s", file, prefetch).isEqualTo(expected);
    }
  }

  private static void assertCorrupt(Path file, String... parts) {
    for (boolean prefetch : new boolean[] {false, true}) {
      assertThatThrownBy(() -> ours(file, prefetch))
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
}
