package dev.prefetch.orc;

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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a prefetching scan of an ORC file really holds on the heap: with eight producers and a
 * consumer that takes nothing, the producers fill the budget and wait; the heap then grows by no
 * more than {@code prefetch.max-buffered-bytes} plus a fixed overhead per producer ({@link
 * #OVERHEAD_PER_PRODUCER_BYTES}, documented in docs/ARCHITECTURE.md). What the readers hold (stripe
 * bytes, decompression buffers) counts in the budget. Heap use is read after full collections,
 * before the open and once the producers stand still.
 */
@Timeout(120)
class OrcReaderHeapTest {

  /**
   * What a producer holds outside the budget: its column readers and decoders (their scratch
   * arrays), its thread. The bound leaves room for the collector's slack.
   */
  static final long OVERHEAD_PER_PRODUCER_BYTES = 2L << 20;

  private static final int PRODUCERS = 8;
  private static final long BUDGET_BYTES = 8L << 20;
  private static final int ROWS = 600_000;

  @TempDir static Path dir;

  private static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    TypeDescription schema =
        TypeDescription.fromString("struct<a:bigint,b:bigint,c:bigint,d:bigint,e:bigint>");
    file = dir.resolve("heap.orc");
    Configuration conf = new Configuration();
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, 100_000);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(conf).setSchema(schema).compress(CompressionKind.SNAPPY))) {
      VectorizedRowBatch batch = schema.createRowBatch(1000);
      for (int row = 0; row < ROWS; ) {
        batch.reset();
        for (int i = 0; i < batch.getMaxSize(); i++, row++) {
          long v = row * 2_654_435_761L;
          ((LongColumnVector) batch.cols[0]).vector[i] = v;
          ((LongColumnVector) batch.cols[1]).vector[i] = v ^ 0x5555L;
          ((LongColumnVector) batch.cols[2]).vector[i] = v * 31;
          ((LongColumnVector) batch.cols[3]).vector[i] = row;
          ((LongColumnVector) batch.cols[4]).vector[i] = v >>> 3;
        }
        batch.size = batch.getMaxSize();
        writer.addRowBatch(batch);
      }
    }
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
            .property(OrcOptions.NATURAL_READ_SIZE, "256k")
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
