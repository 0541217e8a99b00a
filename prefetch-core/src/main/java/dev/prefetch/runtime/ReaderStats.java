package dev.prefetch.runtime;

import dev.prefetch.ReaderMetrics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one reader. Batches, rows and consumer wait are written by the consumer; producer
 * wait and peak bytes by the exchange; all are atomics so that {@code metrics()} may be read from
 * any thread.
 */
final class ReaderStats {
  final AtomicLong batches = new AtomicLong();
  final AtomicLong rows = new AtomicLong();
  final AtomicLong consumerWaitNanos = new AtomicLong();
  final AtomicLong producerWaitNanos = new AtomicLong();
  final AtomicLong peakBufferedBytes = new AtomicLong();
  final AtomicLong producerParks = new AtomicLong();
  final AtomicLong producersAbandoned = new AtomicLong();

  void countBatch(int rowCount) {
    batches.incrementAndGet();
    rows.addAndGet(rowCount);
  }

  ReaderMetrics snapshot(FileSequence files, PrefetchDecision decision) {
    return new ReaderMetrics(files.size(), files.rangesPlanned(), decision.prefetch(),
        decision.reason(), decision.parallelism(), batches.get(), rows.get(),
        files.counters().get(dev.prefetch.spi.ScanCounters.BYTES_READ), consumerWaitNanos.get(),
        producerWaitNanos.get(), peakBufferedBytes.get(), producerParks.get(),
        producersAbandoned.get(), files.counters().snapshot());
  }
}
