package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.CountingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How many storage requests a scan costs, counted by a filesystem that is not local (so reads take
 * the remote path: a stripe's requests issued together): one for the tail, then per stripe a fixed
 * number whatever the producers, and each byte once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcRemoteReadsTest {

  private static final int ROWS = 40_000;
  private static final int STRIPES = 4;

  @TempDir static Path dir;

  /** Four stripes of ten 1,000-row strides. */
  private static Path file;

  /** Holds for every row, yet makes orc-core read each stripe in part, by row groups. */
  private static final SearchArgument EVERY_ROW =
      SearchArgumentFactory.newBuilder()
          .startNot()
          .lessThan("id", PredicateLeaf.Type.LONG, -1L)
          .end()
          .build();

  @BeforeAll
  static void writeFile() throws IOException {
    file =
        OrcTestFiles.write(
            dir.resolve("remote.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, ROWS).stripeRows(ROWS / STRIPES));
  }

  @AfterEach
  void noProducerOutlivesItsReader() {
    ReaderThreads.assertNoneAlive();
  }

  /** A scan of one-stride ranges; its request and byte counts. */
  private static Counted scan(int producers, List<String> columns, SearchArgument sarg)
      throws IOException {
    CountingFileSystem.reset(file);
    ReadOptions options =
        ReadOptions.builder()
            .minReadBytes(0)
            .prefetchEnabled(producers > 1)
            .parallelism(Math.max(2, producers))
            .columns(columns)
            .filter(sarg)
            .property(OrcOptions.NATURAL_READ_SIZE, "1")
            .build();
    try (ReadContext context =
            ReadContext.builder().configuration(CountingFileSystem.configuration()).build();
        BatchReader reader =
            Readers.open(DataFile.of(CountingFileSystem.path(file)), options, context)) {
      assertThat(Rows.ours(reader))
          .isEqualTo(Rows.reference(file, columns, sarg, new Configuration(), null));
      assertThat(reader.metrics().rangesPlanned()).isEqualTo(ROWS / 1000);
      CountingFileSystem.Counts counts = CountingFileSystem.counts(file);
      assertThat(counts.positionedReads())
          .isEqualTo(reader.metrics().counter(ScanCounters.READ_REQUESTS));
      assertThat(counts.openStreams()).isZero();
      return new Counted(counts.positionedReads(), counts.bytesRead());
    }
  }

  private record Counted(long requests, long bytes) {}

  @Test
  void aStripeReadWholeCostsItsFooterAndOneRequestWhateverTheProducers() throws IOException {
    for (List<String> columns : List.of(List.<String>of(), List.of("id", "f64"))) {
      Counted single = scan(1, columns, null);
      // the tail, then each stripe's footer and its selected streams (one span here)
      assertThat(single.requests()).isEqualTo(1 + 2 * STRIPES);
      for (int producers : new int[] {2, 8}) {
        assertThat(scan(producers, columns, null)).isEqualTo(single);
      }
    }
  }

  @Test
  void producersSharingAStripeUnderAPredicateReadItOnce() throws IOException {
    long fileBytes = Files.size(file);
    Counted all = scan(1, List.of(), EVERY_ROW);
    // the tail, then per stripe its footer, row index and data (every column back to back);
    // before the reads were kept for each other, 8 producers sent 104 to 168 requests
    assertThat(all.requests()).isEqualTo(1 + 3 * STRIPES);
    assertThat(all.bytes()).isLessThan(fileBytes * 21 / 20);
    Counted two = scan(1, List.of("id", "f64"), EVERY_ROW);
    // the two columns' streams lie apart, but closer than the gap worth a request of its own:
    // their index is one request, their data another (orc-core asked for each run of streams)
    assertThat(two.requests()).isEqualTo(1 + 3 * STRIPES);
    assertThat(two.bytes()).isLessThan(all.bytes());
    for (int producers : new int[] {2, 8}) {
      assertThat(scan(producers, List.of(), EVERY_ROW)).isEqualTo(all);
      assertThat(scan(producers, List.of("id", "f64"), EVERY_ROW)).isEqualTo(two);
    }
  }
}
