package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.orc.testing.OrcSurgery;
import dev.prefetch.orc.testing.OrcWriterCorpus;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.orc.testing.OrcWriterCorpus.Trait;
import dev.prefetch.testing.ReaderThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file of {@link OrcWriterCorpus} (the C++ writer's, Trino's and orc-core's legacy files)
 * reads equal to orc-core's own reader, value for value, on the single path and with 2 and 4
 * producers over ranges of single strides; and the corpus holds what its list says.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrcWriterCorpusTest {

  @TempDir static Path dir;

  static List<OrcWriterFile> corpus;

  @BeforeAll
  static void writeCorpus() throws Exception {
    corpus = OrcWriterCorpus.write(dir);
  }

  @AfterEach
  void noProducerOutlivesItsReader() {
    ReaderThreads.assertNoneAlive();
  }

  static Stream<Arguments> reads() {
    List<Arguments> cases = new ArrayList<>();
    for (OrcWriterFile file : OrcWriterCorpus.files()) {
      for (int producers : new int[] {1, 2, 4}) {
        cases.add(Arguments.of(file.name(), producers));
      }
    }
    return cases.stream();
  }

  private static OrcWriterFile file(String name) {
    return corpus.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
  }

  /** 1: the single path; more: prefetching over ranges of one stride each. */
  private static ReadOptions options(int producers) {
    ReadOptions.Builder options = ReadOptions.builder().batchSize(333);
    if (producers == 1) {
      return options.prefetchEnabled(false).build();
    }
    return options
        .parallelism(producers)
        .minReadBytes(0)
        .property(OrcOptions.NATURAL_READ_SIZE, "1")
        .build();
  }

  @ParameterizedTest(name = "{0} producers={1}")
  @MethodSource("reads")
  void everyFileReadsEqualToOrcCore(String name, int producers) throws Exception {
    OrcWriterFile file = file(name);
    List<Rows.Row> ours;
    long ranges;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file.path(), options(producers), context)) {
      ours = Rows.ours(reader);
      ranges = reader.metrics().rangesPlanned();
    }
    assertThat(ours).hasSize((int) file.rows());
    if (file.has(Trait.NEGATIVE_NANOS)) {
      // orc-core's vectors hold the negative nanoseconds as they are (java.sql.Timestamp, and so
      // Rows.reference, refuses them): checked against the values the script wrote instead
      assertThat(ours).isEqualTo(TimestampsBefore1970.rows());
    } else {
      assertThat(ours)
          .isEqualTo(Rows.reference(file.path(), List.of(), null, new Configuration(), null));
    }
    if (producers > 1) {
      // ranges of one stride where there is a row index; whole stripes where there is none
      long expected =
          file.rowIndexStride() > 0 && !file.has(Trait.STRIDE_WITHOUT_ROW_INDEX)
              ? strides(file)
              : file.stripes();
      assertThat(ranges).as("ranges of %s", file).isEqualTo(expected);
    }
  }

  private static long strides(OrcWriterFile file) throws Exception {
    long strides = 0;
    try (Reader reader = orcReader(file)) {
      for (var stripe : reader.getStripes()) {
        strides += (stripe.getNumberOfRows() + file.rowIndexStride() - 1) / file.rowIndexStride();
      }
    }
    return strides;
  }

  private static Reader orcReader(OrcWriterFile file) throws Exception {
    return OrcFile.createReader(
        new org.apache.hadoop.fs.Path(file.path().toUri()),
        OrcFile.readerOptions(new Configuration()));
  }

  /**
   * What the list says of each file is what orc-core finds in it: rows, stripes, codec, stride,
   * writer, and each trait that can be seen in the metadata.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void theListSaysWhatEachFileHolds(String name) throws Exception {
    OrcWriterFile file = file(name);
    byte[] bytes = Files.readAllBytes(file.path());
    OrcSurgery tail = new OrcSurgery(bytes);
    OrcProto.PostScript ps = tail.postScript();
    OrcProto.Footer footer = tail.footer();
    try (Reader reader = orcReader(file)) {
      assertThat(reader.getNumberOfRows()).isEqualTo(file.rows());
      assertThat(reader.getStripes()).hasSize(file.stripes());
      assertThat(reader.getCompressionKind()).isEqualTo(file.codec());
      assertThat((long) reader.getRowIndexStride()).isEqualTo(file.rowIndexStride());
      if (file.writer().equals(OrcWriterCorpus.CPP)) {
        assertThat(reader.getSoftwareVersion()).isEqualTo("ORC C++ 2.2.2");
      } else if (file.writer().equals(OrcWriterCorpus.TRINO)) {
        assertThat(footer.getWriter()).isEqualTo(OrcFile.WriterImplementation.TRINO.getId());
      }
      assertThat(reader.getFileVersion() == OrcFile.Version.V_0_11)
          .isEqualTo(file.has(Trait.VERSION_0_11));
      assertThat(reader.getStripes().size() > 1).isEqualTo(file.has(Trait.STRIPES));
      assertThat(reader.getStripes().size() == 1).isEqualTo(file.has(Trait.SINGLE_STRIPE));
    }
    var stripes = footer.getStripesList();
    var last = stripes.get(stripes.size() - 1);
    long stripesEnd = last.getOffset() + last.getIndexLength() + last.getDataLength();
    stripesEnd += last.getFooterLength();
    assertThat(footer.getContentLength() == stripesEnd - 3)
        .as("content length %s, stripes end at %s", footer.getContentLength(), stripesEnd)
        .isEqualTo(file.has(Trait.CONTENT_LENGTH_WITHOUT_HEADER));
    assertThat(stripes.get(0).getOffset()).isEqualTo(3);
    boolean indexed = stripes.stream().anyMatch(s -> s.getIndexLength() > 0);
    assertThat(!indexed && footer.getRowIndexStride() > 0)
        .isEqualTo(file.has(Trait.STRIDE_WITHOUT_ROW_INDEX));
    assertThat(!indexed && footer.getRowIndexStride() == 0).isEqualTo(file.has(Trait.NO_ROW_INDEX));
    assertThat(!ps.hasCompressionBlockSize()).isEqualTo(file.has(Trait.NO_COMPRESSION_BLOCK_SIZE));
    assertThat(!ps.hasMagic()).isEqualTo(file.has(Trait.NO_POSTSCRIPT_MAGIC));
    assertThat(ps.getMetadataLength() == 0).isEqualTo(file.has(Trait.NO_STRIPE_STATISTICS));
    Set<OrcProto.ColumnEncoding.Kind> encodings = new HashSet<>();
    int strides = 0;
    for (int s = 0; s < stripes.size(); s++) {
      for (OrcProto.ColumnEncoding encoding : tail.stripeFooter(s).getColumnsList()) {
        encodings.add(encoding.getKind());
      }
      if (footer.getRowIndexStride() > 0 && stripes.get(s).getIndexLength() > 0) {
        strides =
            Math.max(
                strides,
                (int)
                    Math.ceil(
                        (double) stripes.get(s).getNumberOfRows() / footer.getRowIndexStride()));
      }
    }
    assertThat(strides > 1).isEqualTo(file.has(Trait.STRIDES));
    boolean dictionaries =
        encodings.contains(OrcProto.ColumnEncoding.Kind.DICTIONARY)
            || encodings.contains(OrcProto.ColumnEncoding.Kind.DICTIONARY_V2);
    assertThat(dictionaries).isEqualTo(file.has(Trait.DICTIONARY_STRINGS));
    boolean v1 =
        encodings.contains(OrcProto.ColumnEncoding.Kind.DICTIONARY)
            || encodings.contains(OrcProto.ColumnEncoding.Kind.DIRECT)
                && !encodings.contains(OrcProto.ColumnEncoding.Kind.DIRECT_V2);
    assertThat(v1).as("run-length encoding version 1").isEqualTo(file.has(Trait.VERSION_0_11));
    if (file.has(Trait.NEGATIVE_NANOS)) {
      assertThat(negativeNanos(file)).isPositive();
    }
  }

  static Stream<String> names() {
    return OrcWriterCorpus.files().stream().map(OrcWriterFile::name);
  }

  /** Every fixture committed is in the list (and the other way round, by the copy). */
  @Test
  void everyCommittedFixtureIsListed() throws Exception {
    Path resources = Path.of("src/test/resources", OrcWriterCorpus.resourceFolder());
    Set<String> committed = new HashSet<>();
    try (Stream<Path> walk = Files.walk(resources)) {
      walk.filter(p -> p.toString().endsWith(".orc"))
          .forEach(p -> committed.add(resources.relativize(p).toString()));
    }
    Set<String> listed = new HashSet<>();
    OrcWriterCorpus.fixtures().forEach(f -> listed.add(f.name()));
    assertThat(committed).isEqualTo(listed);
  }

  /** Timestamps whose nanoseconds orc-core hands over negative, as the file holds them. */
  private static long negativeNanos(OrcWriterFile file) throws Exception {
    long count = 0;
    try (Reader reader = orcReader(file);
        RecordReader rows = reader.rows()) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      while (rows.nextBatch(batch)) {
        for (int c = 1; c < batch.cols.length; c++) {
          TimestampColumnVector v = (TimestampColumnVector) batch.cols[c];
          for (int r = 0; r < batch.size; r++) {
            if ((v.noNulls || !v.isNull[r]) && v.nanos[r] < 0) {
              count++;
            }
          }
        }
      }
    }
    return count;
  }

  /** The rows of {@code cpp-timestamps-before-1970.orc}, as its script computes them. */
  static final class TimestampsBefore1970 {

    static List<Rows.Row> rows() {
      List<Rows.Row> rows = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        List<Object> values = new ArrayList<>();
        values.add((long) i);
        values.add(i % 9 == 0 ? null : wall((i - 300) * 3_123_456_789_123_457L));
        values.add(
            i % 11 == 0
                ? null
                : instant(Math.multiplyExact((i - 250) * 86_400_000_123L + i % 7, 1000L)));
        values.add(i % 13 == 0 ? null : wall((i - 200) * 1_000_000_001L * 1_000_000L));
        rows.add(new Rows.Row(i, values));
      }
      return rows;
    }

    private static LocalDateTime wall(long nanos) {
      return LocalDateTime.ofEpochSecond(
          Math.floorDiv(nanos, 1_000_000_000L),
          (int) Math.floorMod(nanos, 1_000_000_000L),
          ZoneOffset.UTC);
    }

    private static Instant instant(long nanos) {
      return Instant.ofEpochSecond(
          Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    private TimestampsBefore1970() {}
  }
}
