package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.orc.internal.OrcFormat;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.EncryptionAlgorithm;
import org.apache.orc.InMemoryKeystore;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour of ORC reads beyond plain parity: planning, pruning, caching, errors, lifecycle. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcFormatTest {

  private static final int ROWS = 10_000;

  @TempDir static Path dir;

  /** Stripes of 2000 rows, strides of 1000 rows, a sorted "id" column. */
  private static Path sorted;

  private static Path allTypes;

  @BeforeAll
  static void writeFiles() throws IOException {
    sorted =
        OrcTestFiles.write(
            dir.resolve("sorted.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, ROWS).stripeRows(2000));
    allTypes =
        OrcTestFiles.write(
            dir.resolve("all.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, 3000).stripeRows(1000));
  }

  @AfterEach
  void noProducerOutlivesItsReader() {
    ReaderThreads.assertNoneAlive();
  }

  private static ReadOptions.Builder prefetching() {
    return ReadOptions.builder()
        .minReadBytes(0)
        .parallelism(4)
        .property(OrcOptions.NATURAL_READ_SIZE, "1");
  }

  private static List<Rows.Row> read(Path file, ReadOptions options) throws IOException {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      return Rows.ours(reader);
    }
  }

  @Test
  void readsBelowThePrefetchThresholdWithOneReaderAndNoThread() throws IOException {
    ReadOptions options =
        ReadOptions.builder()
            .parallelism(4)
            .property(OrcOptions.NATURAL_READ_SIZE, "1")
            .batchSize(100)
            .build(); // default prefetch.min-read-bytes: 10 MiB, far above the file
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(sorted, options, context)) {
      assertThat(reader.next()).isNotNull();
      assertThat(ReaderThreads.live()).isEmpty();
      assertThat(reader.metrics().prefetch()).isFalse();
      assertThat(reader.metrics().rangesPlanned()).isGreaterThan(1);
      List<Rows.Row> rest = Rows.ours(reader);
      assertThat(rest).hasSize(ROWS - 100);
      assertThat(ReaderThreads.live()).isEmpty();
    }
  }

  @Test
  void orcPrefetchThresholdAliasDecidesBetweenOneReaderAndProducers() throws IOException {
    for (String threshold : new String[] {"1g", "0"}) {
      ReadOptions options =
          ReadOptions.builder()
              .parallelism(2)
              .property(OrcOptions.NATURAL_READ_SIZE, "1")
              .property(OrcOptions.PREFETCH_THRESHOLD, threshold)
              .build();
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader = Readers.open(sorted, options, context)) {
        assertThat(Rows.ours(reader)).hasSize(ROWS);
        assertThat(reader.metrics().prefetch()).isEqualTo(threshold.equals("0"));
      }
    }
  }

  @Test
  void aBadOrcValueFailsTheOpenNamingTheKeyAndValue() {
    ReadOptions options =
        ReadOptions.builder().property(OrcOptions.NATURAL_READ_SIZE, "12 parsecs").build();
    assertThatThrownBy(
            () -> {
              try (ReadContext context = ReadContext.defaults();
                  BatchReader reader = Readers.open(sorted, options, context)) {
                reader.next();
              }
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(OrcOptions.NATURAL_READ_SIZE)
        .hasMessageContaining("12 parsecs");
    assertThat(ReaderThreads.live()).isEmpty();
  }

  @Test
  void rangesAreWholeStridesWithinAStripeAndNamedByTheirLocator() throws IOException {
    List<String> locators = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(sorted, prefetching().batchSize(10_000).build(), context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        // One stride per range at a 1-byte natural read size: batches never cross a stride.
        assertThat(batch.rowCount()).isEqualTo(1000);
        assertThat(batch.firstRow() % 1000).isZero();
      }
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(10);
    }
    dev.prefetch.spi.FilePlan plan =
        new OrcFormat()
            .plan(
                DataFile.of(sorted),
                prefetching().build(),
                RangeBudget.of(prefetching().build()),
                ReadContext.defaults(),
                new ScanCounters());
    for (dev.prefetch.spi.ReadRange range : plan.ranges()) {
      locators.add(range.locator().toString());
    }
    assertThat(locators)
        .startsWith("stripe 0 strides 0..0", "stripe 0 strides 1..1", "stripe 1 strides 0..0");
    assertThat(plan.ranges().get(3).describe())
        .contains("rows 3000..4000", "stripe 1 strides 1..1");
  }

  @Test
  void defaultNaturalReadSizeMakesOneRangePerSmallStripe() throws IOException {
    dev.prefetch.spi.FilePlan plan =
        new OrcFormat()
            .plan(
                DataFile.of(sorted),
                ReadOptions.defaults(),
                RangeBudget.of(ReadOptions.defaults()),
                ReadContext.defaults(),
                new ScanCounters());
    assertThat(plan.ranges()).hasSize(5);
    assertThat(plan.ranges().get(2).locator().toString()).isEqualTo("stripe 2 strides 0..1");
    assertThat(plan.estimatedBytes()).isPositive();
  }

  @Test
  void searchArgumentPrunesStripesAndMatchesOrcCore() throws IOException {
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder()
            .between("id", PredicateLeaf.Type.LONG, 4500L, 5200L)
            .build();
    ReadOptions options = prefetching().filter(sarg).build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(sorted, options, context)) {
      List<Rows.Row> rows = Rows.ours(reader);
      // Stripe 2 (rows 4000..6000) alone survives; orc-core keeps its row groups 4 and 5.
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(2);
      assertThat(rows)
          .isEqualTo(Rows.reference(sorted, List.of(), sarg, new Configuration(), null));
      assertThat(rows.get(0).row()).isEqualTo(4000);
      assertThat(rows).hasSize(2000);
    }
  }

  /**
   * An encrypted column's statistics outside its encryption variant are those of its masked values
   * (orc-core's "nullify" mask: no values, all null), which would prove any comparison false: a
   * stripe is never pruned on them.
   */
  @Test
  void anEncryptedColumnsMaskedStatisticsPruneNoStripe() throws IOException {
    InMemoryKeystore keys =
        new InMemoryKeystore().addKey("pii", EncryptionAlgorithm.AES_CTR_128, new byte[16]);
    TypeDescription schema = TypeDescription.fromString("struct<a:bigint,b:bigint>");
    Path file = dir.resolve("encrypted.orc");
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(schema)
                .setKeyProvider(keys)
                .encrypt("pii:b")
                .masks("nullify:b"))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (int row = 0; row < 1000; row++) {
        ((LongColumnVector) batch.cols[0]).vector[row] = row;
        ((LongColumnVector) batch.cols[1]).vector[row] = row * 10L;
      }
      batch.size = 1000;
      writer.addRowBatch(batch);
    }
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder().equals("b", PredicateLeaf.Type.LONG, 50L).build();
    ReadOptions options = prefetching().columns(List.of("a")).filter(sarg).build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(1);
    }
  }

  @Test
  void searchArgumentAsRowFilterReturnsOnlySelectedRows() throws IOException {
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder()
            .startOr()
            .lessThan("id", PredicateLeaf.Type.LONG, 1500L)
            .between("id", PredicateLeaf.Type.LONG, 4990L, 5010L)
            .end()
            .build();
    Map<String, String> filterProperties =
        Map.of("orc.sarg.to.filter", "true", "orc.filter.use.selected", "true");
    ReadOptions options =
        prefetching().batchSize(128).filter(sarg).properties(filterProperties).build();
    List<Rows.Row> rows = read(sorted, options);
    Configuration conf = new Configuration();
    filterProperties.forEach(conf::set);
    // orc-core's batches do not say where their rows are, so compare values (the id is the row).
    assertThat(rows)
        .extracting(Rows.Row::values)
        .isEqualTo(
            Rows.reference(sorted, List.of(), sarg, conf, null).stream()
                .map(Rows.Row::values)
                .toList());
    assertThat(rows).hasSize(1500 + 21);
    for (Rows.Row row : rows) {
      assertThat(row.values().get(0)).as("id of row %d", row.row()).isEqualTo(row.row());
    }
  }

  @Test
  void filterOfAnotherLibraryIsRejectedNamingTheFile() {
    ReadOptions options = ReadOptions.builder().filter("id > 3").build();
    assertThatThrownBy(() -> read(sorted, options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sorted.orc")
        .hasMessageContaining("SearchArgument");
  }

  @Test
  void projectsNestedFieldsByDottedPath() throws IOException {
    List<String> columns = List.of("st.z.q", "i32", "st.y", "u", "lol");
    ReadOptions options = prefetching().columns(columns).batchSize(500).build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(allTypes, options, context)) {
      assertThat(reader.schema().field(0).name()).isEqualTo("st.z.q");
      assertThat(reader.schema().field(0).type()).isEqualTo(DataType.int64());
      assertThat(reader.schema().field(3).type().children().get(0).name()).isEqualTo("tag");
      List<Rows.Row> rows = Rows.ours(reader);
      assertThat(rows)
          .isEqualTo(Rows.reference(allTypes, columns, null, new Configuration(), null));
      assertThat(rows).extracting(row -> row.values().get(0)).containsNull();
    }
  }

  @Test
  void fileWithBloomFiltersReadsAnyProjectionFromMidStripeRanges() throws IOException {
    Path bloom =
        OrcTestFiles.write(
            dir.resolve("bloom-filters.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, 3000)
                .stripeRows(3000)
                .bloomFilters("b,i64,s,st.y"));
    for (List<String> columns :
        List.of(List.of("st"), List.of("lst", "s"), List.of("st.z.q"), List.<String>of())) {
      ReadOptions options = prefetching().columns(columns).parallelism(2).build();
      assertThat(read(bloom, options))
          .as("columns %s", columns)
          .isEqualTo(Rows.reference(bloom, columns, null, new Configuration(), null));
    }
  }

  @Test
  void unknownColumnFailsClearlyNamingFileColumnAndAvailableOnes() {
    ReadOptions options = prefetching().columns("id", "st.nope").build();
    assertThatThrownBy(() -> read(sorted, options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sorted.orc")
        .hasMessageContaining("'st.nope'")
        .hasMessageContaining("st.z.q");
  }

  @Test
  void rowRangesReturnOnlyThoseRows() throws IOException {
    List<RowRange> selection =
        List.of(new RowRange(10, 25), new RowRange(1990, 2010), new RowRange(9999, 10_000));
    ReadOptions options = prefetching().rowRanges(selection).batchSize(7).build();
    List<Rows.Row> rows = read(sorted, options);
    assertThat(rows)
        .isEqualTo(Rows.reference(sorted, List.of(), null, new Configuration(), selection));
    assertThat(rows).hasSize(15 + 20 + 1);
  }

  @Test
  void fileWithNoRowsReadsAsNoBatchesWithItsSchema() throws IOException {
    Path empty =
        OrcTestFiles.write(
            dir.resolve("no-rows.orc"), OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, 0));
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(empty, prefetching().build(), context)) {
      assertThat(reader.schema().size()).isEqualTo(4);
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void zeroByteFileIsCorruptNamingTheFile() throws IOException {
    Path file = Files.createFile(dir.resolve("zero.orc"));
    assertThatThrownBy(() -> read(file, prefetching().build()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("zero.orc")
        .hasMessageContaining("empty");
  }

  @Test
  void truncatedFileIsCorruptNamingTheFile() throws IOException {
    byte[] bytes = Files.readAllBytes(sorted);
    for (int keep : new int[] {2, 3, 100, bytes.length / 2, bytes.length - 1}) {
      Path file = dir.resolve("truncated-" + keep + ".orc");
      Files.write(file, java.util.Arrays.copyOf(bytes, keep));
      assertThatThrownBy(() -> read(file, prefetching().build()))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file.getFileName().toString());
    }
  }

  @Test
  void fileThatIsNotOrcIsRejectedNamingTheFile() throws IOException {
    Path file = dir.resolve("text.orc");
    Files.writeString(file, "this is not an ORC file at all, just some text\n".repeat(50));
    assertThatThrownBy(() -> read(file, prefetching().build()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("text.orc");
  }

  @Test
  void splitsReadTheStripesThatStartInThemAndTogetherEveryRowOnce() throws IOException {
    long length = Files.size(sorted);
    List<StripeInformation> stripes;
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(sorted.toUri()),
            OrcFile.readerOptions(new Configuration()))) {
      stripes = reader.getStripes();
    }
    long cut = stripes.get(2).getOffset() + 1; // stripe 2 starts before the cut
    List<Rows.Row> all = new ArrayList<>();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(sorted.toUri());
    try (ReadContext context = ReadContext.defaults()) {
      for (DataFile split :
          List.of(DataFile.split(path, 0, cut), DataFile.split(path, cut, length - cut))) {
        try (BatchReader reader = Readers.open(split, prefetching().build(), context)) {
          List<Rows.Row> rows = Rows.ours(reader);
          if (split.start() == 0) {
            assertThat(rows).hasSize(3 * 2000);
          }
          all.addAll(rows);
        }
      }
    }
    assertThat(all).isEqualTo(Rows.reference(sorted, List.of(), null, new Configuration(), null));
  }

  @Test
  void tailIsReadOncePerReaderWhateverTheParallelism() throws IOException {
    for (int parallelism : new int[] {1, 2, 4, 8}) {
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader =
              Readers.open(sorted, prefetching().parallelism(parallelism).build(), context)) {
        assertThat(Rows.ours(reader)).hasSize(ROWS);
        assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
        assertThat(reader.metrics().counter(ScanCounters.FOOTER_BYTES_READ)).isPositive();
        assertThat(reader.metrics().bytesRead())
            .isGreaterThan(reader.metrics().counter(ScanCounters.FOOTER_BYTES_READ));
        assertThat(reader.metrics().counter(ScanCounters.READ_REQUESTS)).isPositive();
      }
    }
  }

  @Test
  void cachedTailIsNotReadAgainAndStillPrunesByStripeStatistics() throws IOException {
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder().lessThan("id", PredicateLeaf.Type.LONG, 1500L).build();
    MemoryCache cache = MemoryCache.builder().maximumBytes(1 << 20).build();
    List<Rows.Row> first;
    try (ReadContext context = ReadContext.builder().cache(cache).build()) {
      try (BatchReader reader = Readers.open(sorted, prefetching().filter(sarg).build(), context)) {
        first = Rows.ours(reader);
        assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
        assertThat(reader.metrics().rangesPlanned()).isEqualTo(2);
      }
      for (int parallelism : new int[] {1, 4}) {
        try (BatchReader reader =
            Readers.open(
                sorted, prefetching().parallelism(parallelism).filter(sarg).build(), context)) {
          assertThat(Rows.ours(reader)).isEqualTo(first);
          assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isZero();
          assertThat(reader.metrics().counter(ScanCounters.FOOTER_BYTES_READ)).isZero();
          // Stripe statistics came from the cached bytes: stripes 1..4 are still pruned.
          assertThat(reader.metrics().rangesPlanned()).isEqualTo(2);
        }
      }
    }
    assertThat(cache.stats().misses()).isEqualTo(1);
    assertThat(cache.stats().hits()).isEqualTo(2);
    assertThat(cache.sizeInBytes()).isPositive().isLessThan(Files.size(sorted));
    assertThat(first).hasSize(2000);
  }

  @Test
  void eachStripeByteIsReadOnceWhateverTheProducers() throws IOException {
    Path oneStripe =
        OrcTestFiles.write(
            dir.resolve("one-stripe.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, ROWS).stripeRows(ROWS));
    long fileBytes = Files.size(oneStripe);
    // A walk through all ten ranges of the stripe loads it once.
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(oneStripe, prefetching().prefetchEnabled(false).build(), context)) {
      assertThat(Rows.ours(reader)).hasSize(ROWS);
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(10);
      assertThat(reader.metrics().bytesRead()).isLessThan(fileBytes * 6 / 5);
    }
    // A range near the stripe's end does not load the strides before it.
    List<RowRange> lastStride = List.of(new RowRange(ROWS - 1000, ROWS));
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(oneStripe, prefetching().rowRanges(lastStride).build(), context)) {
      assertThat(Rows.ours(reader))
          .isEqualTo(Rows.reference(oneStripe, List.of(), null, new Configuration(), lastStride));
      assertThat(reader.metrics().bytesRead()).isLessThan(fileBytes / 2);
    }
    // Producers reading neighbouring ranges of the stripe share its bytes.
    for (int producers : new int[] {2, 4}) {
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader =
              Readers.open(oneStripe, prefetching().parallelism(producers).build(), context)) {
        assertThat(Rows.ours(reader))
            .isEqualTo(Rows.reference(oneStripe, List.of(), null, new Configuration(), null));
        assertThat(reader.metrics().prefetch()).isTrue();
        assertThat(reader.metrics().bytesRead()).isLessThan(fileBytes * 6 / 5);
      }
    }
  }

  @Test
  void severalFilesReadAsTheirRowsInListOrder() throws IOException {
    Path second =
        OrcTestFiles.write(
            dir.resolve("second.orc"),
            new OrcTestFiles.Spec(
                OrcTestFiles.WITH_ID,
                3000,
                org.apache.orc.CompressionKind.SNAPPY,
                1000,
                1500,
                true,
                7,
                null));
    List<Rows.Row> expected =
        new ArrayList<>(Rows.reference(sorted, List.of(), null, new Configuration(), null));
    expected.addAll(Rows.reference(second, List.of(), null, new Configuration(), null));
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(
                List.of(DataFile.of(sorted), DataFile.of(second)),
                prefetching().build(),
                context)) {
      assertThat(Rows.ours(reader)).isEqualTo(expected);
      assertThat(reader.metrics().counter(ScanCounters.FOOTER_READS)).isEqualTo(2);
    }
  }

  @Test
  void closingMidReadLeavesNoProducerThread() throws IOException {
    ReadContext context = ReadContext.defaults();
    BatchReader reader =
        Readers.open(
            allTypes, prefetching().parallelism(4).batchSize(10).queueCapacity(1).build(), context);
    assertThat(reader.next()).isNotNull();
    assertThat(reader.metrics().prefetch()).isTrue();
    reader.close();
    assertThat(ReaderThreads.live()).isEmpty();
  }

  @Test
  void otherOrcPropertiesReachOrcCore() throws IOException {
    // orc.skip.corrupt.data is a real orc-core reader setting; an unknown orc.* key is passed on.
    ReadOptions options =
        prefetching()
            .property("orc.skip.corrupt.data", "true")
            .property("orc.some.future.setting", "x")
            .build();
    assertThat(read(sorted, options)).hasSize(ROWS);
  }
}
