package dev.prefetch.internal.runtime;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.IOException;

/**
 * What the single and the prefetching reader share: the schema, the metrics, the misuse check of
 * {@link #next()} after close, and a close that runs once and hands the final metrics to the
 * context's sink even when releasing the read fails. Confined to the consumer thread, like the
 * {@link BatchReader} contract.
 */
abstract class ScanBatchReader implements BatchReader {

  final FileSequence files;
  final ReadContext context;
  final ReaderStats stats = new ReaderStats();
  private final Schema schema;
  private final PrefetchDecision decision;
  private boolean closed;

  ScanBatchReader(
      FileSequence files, Schema schema, PrefetchDecision decision, ReadContext context) {
    this.files = files;
    this.schema = schema;
    this.decision = decision;
    this.context = context;
  }

  /** The next batch of an open reader, or null at the end. */
  abstract RecordBatch nextBatch() throws IOException;

  /** Stops the read and releases its files; runs once, from the first close(). */
  abstract void release() throws IOException;

  @Override
  public final Schema schema() {
    return schema;
  }

  @Override
  public final RecordBatch next() throws IOException {
    if (closed) {
      throw new IllegalStateException("reader is closed");
    }
    return nextBatch();
  }

  @Override
  public final ReaderMetrics metrics() {
    return stats.snapshot(files, decision);
  }

  @Override
  public final void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      release();
    } finally {
      if (context.metricsSink() != null) {
        context.metricsSink().accept(metrics());
      }
    }
  }
}
