package dev.prefetch.internal.runtime;

import dev.prefetch.ReaderMetrics;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.jfr.Events;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one reader. Batches, rows and consumer wait are written by the consumer; producer
 * wait and peak bytes by the exchange; all are atomics so that {@code metrics()} may be read from
 * any thread.
 *
 * <p>The JFR events of waits are emitted here, with the very nanoseconds the counters add, so that
 * a recording's waits add up to the metrics: producer waits at once (the batch is known), the
 * consumer's when the batch its wait ended with is taken ({@code pendingWaitNanos}, consumer-only).
 */
final class ReaderStats {
  final AtomicLong batches = new AtomicLong();
  final AtomicLong rows = new AtomicLong();
  final AtomicLong consumerWaitNanos = new AtomicLong();
  final AtomicLong producerWaitNanos = new AtomicLong();
  final AtomicLong peakBufferedBytes = new AtomicLong();
  final AtomicLong producerParks = new AtomicLong();
  final AtomicLong producersAbandoned = new AtomicLong();

  /** The consumer's waits not yet reported as an event; read and written by the consumer only. */
  private long pendingWaitNanos;

  void countBatch(int rowCount) {
    batches.incrementAndGet();
    rows.addAndGet(rowCount);
  }

  /**
   * A producer of {@code task} waited {@code nanos} for queue space to queue {@code batch}, or for
   * the budget before decoding its next batch ({@code batch == null}: the event names the range).
   */
  void producerWaited(long nanos, TaskTable.Task task, RecordBatch batch, boolean budget) {
    producerWaitNanos.addAndGet(nanos);
    if (batch != null) {
      Events.producerBlocked(batch.file(), batch.firstRow(), batch.rowCount(), budget, nanos);
    } else {
      int rows = (int) Math.min(Integer.MAX_VALUE, task.range().rowCount());
      Events.producerBlocked(task.plan().file(), task.range().firstRow(), rows, budget, nanos);
    }
  }

  /** The consumer waited {@code nanos} in a take; reported with the batch it takes. */
  void consumerWaited(long nanos) {
    consumerWaitNanos.addAndGet(nanos);
    if (Events.consumerWaitedEnabled()) {
      pendingWaitNanos += nanos;
    }
  }

  /** The consumer took {@code batch} (null: the end of the read). */
  void taken(RecordBatch batch) {
    if (batch != null) {
      countBatch(batch.rowCount());
    }
    if (pendingWaitNanos != 0) {
      if (batch == null) {
        Events.consumerWaited(null, 0, 0, pendingWaitNanos);
      } else {
        Events.consumerWaited(batch.file(), batch.firstRow(), batch.rowCount(), pendingWaitNanos);
      }
      pendingWaitNanos = 0;
    }
  }

  ReaderMetrics snapshot(FileSequence files, PrefetchDecision decision) {
    return new ReaderMetrics(
        files.size(),
        files.rangesPlanned(),
        decision.prefetch(),
        decision.reason(),
        decision.parallelism(),
        batches.get(),
        rows.get(),
        files.counters().get(dev.prefetch.spi.ScanCounters.BYTES_READ),
        consumerWaitNanos.get(),
        producerWaitNanos.get(),
        peakBufferedBytes.get(),
        producerParks.get(),
        producersAbandoned.get(),
        files.counters().snapshot());
  }
}
