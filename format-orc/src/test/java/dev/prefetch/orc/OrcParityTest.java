package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.CompressionKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value our reader returns equals orc-core's own reader's, for every type, codec,
 * nullability, parallelism, batch size and range size.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcParityTest {

  private static final int ROWS = 6_000;

  @TempDir static Path dir;

  private static final List<Path> byCodec = new ArrayList<>();
  private static Path noNulls;
  private static Path noIndex;
  private static Path bloom;
  private static final Map<Path, List<Rows.Row>> expectedRows = new ConcurrentHashMap<>();

  @BeforeAll
  static void writeFiles() throws IOException {
    for (CompressionKind codec : codecs()) {
      byCodec.add(
          OrcTestFiles.write(
              dir.resolve("all-" + codec + ".orc"),
              OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS).codec(codec).stripeRows(2500)));
    }
    noNulls =
        OrcTestFiles.write(
            dir.resolve("no-nulls.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS).nulls(false).stripeRows(2000));
    noIndex =
        OrcTestFiles.write(
            dir.resolve("no-index.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS).stride(0).stripeRows(1500));
    bloom =
        OrcTestFiles.write(
            dir.resolve("bloom.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS)
                .stripeRows(3000)
                .bloomFilters("i64,s,d10"));
  }

  @AfterEach
  void noProducerOutlivesItsReader() {
    ReaderThreads.assertNoneAlive();
  }

  private static List<CompressionKind> codecs() {
    return List.of(
        CompressionKind.NONE,
        CompressionKind.ZLIB,
        CompressionKind.SNAPPY,
        CompressionKind.LZO,
        CompressionKind.LZ4,
        CompressionKind.ZSTD);
  }

  static Stream<Arguments> matrix() {
    List<Arguments> cases = new ArrayList<>();
    // The full matrix of parallelism x batch size x range size on one file...
    for (int parallelism : new int[] {1, 2, 4, 8}) {
      for (int batchSize : new int[] {1, 7, 1000, 1024}) {
        for (long natural : new long[] {1, OrcOptions.DEFAULT_NATURAL_READ_SIZE_BYTES}) {
          cases.add(Arguments.of("ZLIB", parallelism, batchSize, natural));
        }
      }
    }
    // ...and a diagonal over the other files.
    String[] others = {"NONE", "SNAPPY", "LZO", "LZ4", "ZSTD", "no-nulls", "no-index", "bloom"};
    int[] parallelisms = {1, 2, 4, 8};
    int[] batchSizes = {7, 1000, 1024, 333};
    for (int i = 0; i < others.length; i++) {
      cases.add(Arguments.of(others[i], parallelisms[i % 4], batchSizes[i % 4], 1L));
      cases.add(
          Arguments.of(
              others[i],
              parallelisms[(i + 2) % 4],
              batchSizes[(i + 1) % 4],
              OrcOptions.DEFAULT_NATURAL_READ_SIZE_BYTES));
    }
    return cases.stream();
  }

  private static Path file(String name) {
    return switch (name) {
      case "no-nulls" -> noNulls;
      case "no-index" -> noIndex;
      case "bloom" -> bloom;
      default -> byCodec.get(codecs().indexOf(CompressionKind.valueOf(name)));
    };
  }

  @ParameterizedTest(name = "{0} parallelism={1} batch={2} natural={3}")
  @MethodSource("matrix")
  void everyValueEqualsOrcCoresOwnReader(
      String name, int parallelism, int batchSize, long naturalReadSize) throws IOException {
    Path file = file(name);
    List<Rows.Row> expected = expectedRows.get(file);
    if (expected == null) {
      expected = Rows.reference(file, List.of(), null, new Configuration(), null);
      expectedRows.put(file, expected);
    }
    ReadOptions options =
        ReadOptions.builder()
            .parallelism(parallelism)
            .batchSize(batchSize)
            .property(OrcOptions.NATURAL_READ_SIZE, String.valueOf(naturalReadSize))
            .minReadBytes(0)
            .build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      List<Rows.Row> actual = Rows.ours(reader);
      assertThat(actual).hasSize(ROWS);
      assertThat(actual).isEqualTo(expected);
      // With prefetch.min-read-bytes=0 every read of more than one range prefetches.
      assertThat(reader.metrics().prefetch()).isEqualTo(reader.metrics().rangesPlanned() > 1);
    }
  }
}
