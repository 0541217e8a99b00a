package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.OrcTestFiles;
import dev.prefetch.orc.Rows;
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
class EncodingMatrixTest {

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
  void everyRowEqualsOrcCoresWhateverTheRangesProjectionAndPredicate(
      OrcFile.Version version, CompressionKind codec, boolean dictionary) throws IOException {
    Path file = write(version, codec, dictionary, null);
    ReadOptions.Builder oneStride =
        ReadOptions.builder()
            .batchSize(377)
            .minReadBytes(0)
            .parallelism(3)
            .property(OrcOptions.NATURAL_READ_SIZE, "1");
    assertSameRows(file, oneStride.build(), List.of(), null, null);
    assertSameRows(
        file,
        oneStride.property(OrcOptions.DICTIONARY_VECTORS, "none").prefetchEnabled(false).build(),
        List.of(),
        null,
        null);
    List<String> columns = List.of("st.z.q", "u", "lol", "m", "s", "c", "d30", "ts");
    List<RowRange> rows = List.of(new RowRange(1300, 2600), new RowRange(4777, 6450));
    assertSameRows(file, oneStride.columns(columns).rowRanges(rows).build(), columns, null, rows);
    SearchArgument sarg =
        SearchArgumentFactory.newBuilder()
            .startOr()
            .lessThan("i16", PredicateLeaf.Type.LONG, -30_000L)
            .between("i8", PredicateLeaf.Type.LONG, 100L, 110L)
            .end()
            .build();
    assertSameRows(
        file, ReadOptions.builder().batchSize(1000).filter(sarg).build(), List.of(), sarg, null);
  }

  @ParameterizedTest(name = "writer in {0}")
  @MethodSource("zones")
  void timestampsOfAWriterInAnotherTimeZoneAreTheSameOnBothPaths(String zone) throws IOException {
    Path file = write(OrcFile.Version.V_0_12, CompressionKind.ZLIB, false, zone);
    assertSameRows(file, ReadOptions.builder().batchSize(500).build(), List.of(), null, null);
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

  private static void assertSameRows(
      Path file,
      ReadOptions options,
      List<String> columns,
      SearchArgument sarg,
      List<RowRange> rowRanges)
      throws IOException {
    List<Rows.Row> ours;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      ours = Rows.ours(reader);
    }
    assertThat(ours)
        .as("%s read with %s", file.getFileName(), options)
        .isEqualTo(Rows.reference(file, columns, sarg, new Configuration(), rowRanges))
        .isNotEmpty();
  }
}
