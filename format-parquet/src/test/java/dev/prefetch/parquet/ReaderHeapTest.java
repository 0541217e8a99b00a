package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a prefetching scan really holds on the heap: with eight producers and a consumer that takes
 * nothing, the producers fill the budget and wait; the heap then grows by no more than {@code
 * prefetch.max-buffered-bytes} plus a fixed overhead per producer ({@link
 * #OVERHEAD_PER_PRODUCER_BYTES}, documented in docs/ARCHITECTURE.md). Heap use is read after full
 * collections, before the open and once the producers stand still.
 */
@Timeout(120)
class ReaderHeapTest {

  /**
   * What a producer holds outside the budget: its parquet-hadoop reader and column readers, the
   * decompressed page it decodes per column (lent by its page pool, so not counted), decoders and
   * their dictionaries, its thread. Measured about 0.6 MiB per producer for five int64 columns; the
   * bound leaves room for the collector's slack.
   */
  static final long OVERHEAD_PER_PRODUCER_BYTES = 2L << 20;

  private static final int PRODUCERS = 8;
  private static final long BUDGET_BYTES = 8L << 20;
  private static final int ROWS = 600_000;

  @TempDir static Path dir;

  private static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required int64 a; required int64 b; required int64 c; required int64 d;"
                + " required int64 e; }");
    file =
        ParquetTestFiles.write(
            dir.resolve("heap.parquet"),
            schema,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .dictionary(false)
                .codec(CompressionCodecName.SNAPPY)
                .rowGroupBytes(1 << 20)
                .pageRowLimit(20_000),
            (i, group) -> {
              long v = i * 2_654_435_761L;
              group
                  .append("a", v)
                  .append("b", v ^ 0x5555L)
                  .append("c", v * 31)
                  .append("d", (long) i)
                  .append("e", v >>> 3);
            });
  }

  private static long usedAfterCollection() throws InterruptedException {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      memory.gc();
      Thread.sleep(50);
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  @Test
  void aScanThatIsNotConsumedHoldsNoMoreThanTheBudgetAndAFixedOverheadPerProducer()
      throws Exception {
    ReadOptions options =
        ReadOptions.builder()
            .parallelism(PRODUCERS)
            .minReadBytes(0)
            .maxBufferedBytes(BUDGET_BYTES)
            .batchSize(4096)
            .build();
    long baseline = usedAfterCollection();
    try (BatchReader reader = Readers.open(DataFile.of(file), options, ReadContext.defaults())) {
      assertThat(reader.metrics().prefetch()).isTrue();
      // Producers fill what the budget lets them and wait: the peak stops moving.
      long last = -1;
      int still = 0;
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (still < 10 && System.nanoTime() < deadline) {
        Thread.sleep(50);
        long peak = reader.metrics().peakBufferedBytes();
        still = peak == last && peak > BUDGET_BYTES / 2 ? still + 1 : 0;
        last = peak;
      }
      long grown = usedAfterCollection() - baseline;
      System.out.println(
          "heap grown "
              + grown
              + " bytes, budget "
              + BUDGET_BYTES
              + ", peak counted "
              + reader.metrics().peakBufferedBytes()
              + ", per producer beyond the budget "
              + (grown - BUDGET_BYTES) / PRODUCERS);
      assertThat(grown).isLessThanOrEqualTo(BUDGET_BYTES + PRODUCERS * OVERHEAD_PER_PRODUCER_BYTES);
      // The scan still reads every row.
      long rows = 0;
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
      }
      assertThat(rows).isEqualTo(ROWS);
    }
  }
}
