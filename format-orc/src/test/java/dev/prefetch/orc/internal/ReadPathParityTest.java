package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.RowRange;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.StructVector;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.OrcTestFiles;
import dev.prefetch.orc.Rows;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The read path of our own against the previous one, on orc-core's record readers, range by range
 * of one plan: every batch alike, its first row, size, vector classes (nested ones too), nulls and
 * values. Files of every type in every format version (RLE v1, RLE v2, Decimal64), codec and string
 * encoding, with strides of 1,000 rows and stripes that end inside strides, nulls in every column.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadPathParityTest {

  private static final int ROWS = 8_000;

  @TempDir static Path dir;

  static Stream<Arguments> files() {
    List<Arguments> files = new ArrayList<>();
    for (OrcFile.Version version :
        List.of(OrcFile.Version.V_0_11, OrcFile.Version.V_0_12, OrcFile.Version.UNSTABLE_PRE_2_0)) {
      for (CompressionKind codec :
          List.of(
              CompressionKind.NONE,
              CompressionKind.ZLIB,
              CompressionKind.SNAPPY,
              CompressionKind.LZ4,
              CompressionKind.ZSTD)) {
        for (boolean dictionary : new boolean[] {false, true}) {
          files.add(Arguments.of(version, codec, dictionary));
        }
      }
    }
    return files.stream();
  }

  @ParameterizedTest(name = "{0} {1} dictionary={2}")
  @MethodSource("files")
  void everyBatchOfEveryRangeIsTheSameOnBothPaths(
      OrcFile.Version version, CompressionKind codec, boolean dictionary) throws IOException {
    Path file = write(version, codec, dictionary, null);
    ReadOptions.Builder oneStride =
        ReadOptions.builder()
            .batchSize(377)
            .property(OrcOptions.NATURAL_READ_SIZE, "1")
            .property(OrcOptions.DICTIONARY_VECTORS, "none"); // the previous path's classes
    assertSameBatches(file, oneStride.build());
    assertSameBatches(
        file,
        oneStride
            .columns("st.z.q", "u", "lol", "m", "s", "c", "d30", "ts")
            .rowRanges(List.of(new RowRange(1300, 2600), new RowRange(4777, 6450)))
            .build());
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder()
            .startOr()
            .lessThan("i16", PredicateLeaf.Type.LONG, -30_000L)
            .between("i8", PredicateLeaf.Type.LONG, 100L, 110L)
            .end()
            .build();
    assertSameBatches(
        file,
        ReadOptions.builder()
            .batchSize(1000)
            .filter(sarg)
            .property(OrcOptions.DICTIONARY_VECTORS, "none")
            .build());
  }

  @ParameterizedTest(name = "writer in {0}")
  @MethodSource("zones")
  void timestampsOfAWriterInAnotherTimeZoneAreTheSameOnBothPaths(String zone) throws IOException {
    Path file = write(OrcFile.Version.V_0_12, CompressionKind.ZLIB, false, zone);
    assertSameBatches(
        file,
        ReadOptions.builder()
            .batchSize(500)
            .property(OrcOptions.DICTIONARY_VECTORS, "none")
            .build());
  }

  static Stream<String> zones() {
    return Stream.of("America/Los_Angeles", "Asia/Kolkata", "UTC");
  }

  private static Path write(
      OrcFile.Version version, CompressionKind codec, boolean dictionary, String zone)
      throws IOException {
    Path file =
        dir.resolve(
            version.getName()
                + "-"
                + codec
                + (dictionary ? "-dictionary" : "-direct")
                + (zone == null ? "" : "-" + zone.replace('/', '_'))
                + ".orc");
    Configuration conf = new Configuration();
    OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(conf, dictionary ? 1.0 : 0.0);
    OrcTestFiles.Spec spec =
        OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS)
            .codec(codec)
            .stride(1000)
            .stripeRows(2500);
    TimeZone before = TimeZone.getDefault();
    if (zone != null) {
      TimeZone.setDefault(TimeZone.getTimeZone(zone)); // orc-core writes the default zone
    }
    try {
      return OrcTestFiles.write(file, spec, conf, options -> options.version(version));
    } finally {
      TimeZone.setDefault(before);
    }
  }

  /** Reads every range of one plan with both paths and compares their batches. */
  private static void assertSameBatches(Path file, ReadOptions options) throws IOException {
    try (ReadContext context = ReadContext.defaults()) {
      OrcFilePlan plan =
          (OrcFilePlan)
              new OrcFormat()
                  .plan(
                      DataFile.of(file),
                      options,
                      RangeBudget.of(options),
                      context,
                      new ScanCounters());
      try (plan) {
        assertThat(plan.ranges()).isNotEmpty();
        ReaderContext readers = ReaderContext.standalone(new ScanCounters());
        try (RangeReader ours = plan.openReader(readers);
            RangeReader core = plan.openCoreReader(readers)) {
          int batches = 0;
          for (ReadRange range : plan.ranges()) {
            List<RecordBatch> expected = batches(core, range);
            List<RecordBatch> actual = batches(ours, range);
            assertThat(actual).as("batches of %s", range.describe()).hasSameSizeAs(expected);
            for (int b = 0; b < expected.size(); b++) {
              assertSame(expected.get(b), actual.get(b), range.describe() + ", batch " + b);
            }
            batches += actual.size();
          }
          assertThat(batches).isPositive();
        }
      }
    }
  }

  private static List<RecordBatch> batches(RangeReader reader, ReadRange range) throws IOException {
    reader.start(range);
    List<RecordBatch> batches = new ArrayList<>();
    for (RecordBatch batch; (batch = reader.next()) != null; ) {
      batches.add(batch);
    }
    return batches;
  }

  private static void assertSame(RecordBatch expected, RecordBatch actual, String where) {
    assertThat(actual.firstRow()).as("first row of %s", where).isEqualTo(expected.firstRow());
    assertThat(actual.rowCount()).as("rows of %s", where).isEqualTo(expected.rowCount());
    assertThat(actual.schema()).isEqualTo(expected.schema());
    for (int c = 0; c < expected.columns().size(); c++) {
      assertSame(
          expected.column(c),
          actual.column(c),
          expected.rowCount(),
          where + ", column " + expected.schema().field(c).name());
    }
  }

  private static void assertSame(ColumnVector expected, ColumnVector actual, int rows, String at) {
    assertThat(actual.getClass()).as("vector class of %s", at).isEqualTo(expected.getClass());
    assertThat(actual.type()).as("type of %s", at).isEqualTo(expected.type());
    assertThat(actual.size()).as("size of %s", at).isEqualTo(expected.size());
    for (int i = 0; i < rows; i++) {
      assertThat(actual.isNull(i)).as("null %d of %s", i, at).isEqualTo(expected.isNull(i));
      assertThat(Rows.ours(actual, i))
          .as("value %d of %s", i, at)
          .isEqualTo(Rows.ours(expected, i));
    }
    assertThat(actual.mayHaveNulls())
        .as("whether %s has a null mask", at)
        .isEqualTo(expected.mayHaveNulls());
    if (expected instanceof ListVector list) {
      ListVector other = (ListVector) actual;
      assertSame(list.elements(), other.elements(), list.elements().size(), at + " elements");
    } else if (expected instanceof MapVector map) {
      MapVector other = (MapVector) actual;
      assertSame(map.keys(), other.keys(), map.keys().size(), at + " keys");
      assertSame(map.values(), other.values(), map.values().size(), at + " values");
    } else if (expected instanceof StructVector struct) {
      StructVector other = (StructVector) actual;
      for (int f = 0; f < struct.children().size(); f++) {
        assertSame(struct.child(f), other.child(f), rows, at + " field " + f);
      }
    }
  }
}
