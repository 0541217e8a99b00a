package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.util.Collections;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code prefetch.max-buffered-bytes} bounds everything a read holds, not only its queued batches:
 * the batch each producer decodes before it may queue it, and the buffers its range readers report
 * through their ledgers. Measured by the synthetic format itself (batches made and not yet taken,
 * buffers held), so the bound is checked against what exists, not against the runtime's own count.
 */
@Timeout(60)
@ExtendWith(NothingLeaks.class)
class BudgetCoverageTest {

  /** 10 rows of 8 + 100 + 4 bytes, and the last offset. */
  private static final long BATCH_BYTES = 10 * (8 + 100 + 4) + 4;

  private static final int PRODUCERS = 8;

  @RegisterExtension static final EnginePool POOL = new EnginePool("engine-budget");

  /**
   * Reads {@code file} slowly, so that producers fill whatever the budget lets them hold, and
   * returns the peak of what the file's readers held once the first {@code settle} batches were
   * taken (by then every producer has opened its reader).
   */
  private static long peakWhileReading(DataFile file, long budget, boolean executor, int settle)
      throws IOException, InterruptedException {
    ReadOptions options =
        Scans.prefetching(PRODUCERS, 64, 10).maxBufferedBytes(budget).minReadBytes(0).build();
    ReadContext context = POOL.context(executor);
    SyntheticFormat.LIVE_BYTES.set(0);
    SyntheticFormat.PEAK_LIVE_BYTES.set(0);
    long rows = 0;
    int taken = 0;
    try (BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
        SyntheticFormat.taken(batch);
        if (++taken == settle) {
          SyntheticFormat.PEAK_LIVE_BYTES.set(SyntheticFormat.LIVE_BYTES.get());
        }
        Thread.sleep(0, 300_000); // a slow consumer: every producer reaches the bound
      }
    }
    assertThat(rows).isEqualTo(64 * 40);
    return SyntheticFormat.PEAK_LIVE_BYTES.get();
  }

  private static DataFile file(String name) {
    return SyntheticFormat.register(
        name, SyntheticFormat.Spec.of(Collections.nCopies(64, 40)).withPayload(100));
  }

  @ParameterizedTest(name = "on an executor: {0}")
  @ValueSource(booleans = {false, true})
  void theBatchesProducersDecodeBeforeQueueingThemStayWithinTheBudget(boolean executor)
      throws Exception {
    long budget = 10 * BATCH_BYTES;
    long peak = peakWhileReading(file("decoded-" + executor), budget, executor, 0);
    // Beyond the budget only the batch handed off to the waiting consumer (see Budget). Counting
    // only the queues, eight producers each held one more decoded batch on top of a full budget.
    assertThat(peak).isLessThanOrEqualTo(budget + 2 * BATCH_BYTES);
  }

  @ParameterizedTest(name = "on an executor: {0}")
  @ValueSource(booleans = {false, true})
  void theBuffersRangeReadersReportCountAgainstTheBudget(boolean executor) throws Exception {
    String name = "buffers-" + executor;
    DataFile file = file(name);
    SyntheticFormat.readerBuffers(name, 2 * BATCH_BYTES);
    long budget = 24 * BATCH_BYTES;
    long peak = peakWhileReading(file, budget, executor, 80);
    // Eight readers hold 16 batches' worth: the queues get the rest of the budget, not all of it.
    // (A reader's report is never refused: one made as a producer starts comes on top of what the
    // queues hold then, so the peak is measured once every reader is open.)
    assertThat(peak).isLessThanOrEqualTo(budget + 2 * BATCH_BYTES);
  }
}
