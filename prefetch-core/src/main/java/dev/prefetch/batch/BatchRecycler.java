package dev.prefetch.batch;

import java.util.List;

/**
 * Takes back the arrays of a {@link RecordBatch} its consumer has {@linkplain RecordBatch#release
 * released}, so that the reader that built the batch can fill them again instead of allocating (and
 * zeroing) new ones.
 *
 * <p>Implemented by a format's range reader and attached to the batches it builds. Called at most
 * once per batch, on the consumer's thread, while the reader may be decoding on another: an
 * implementation is thread-safe, must not block, and keeps only what it will reuse.
 */
@FunctionalInterface
public interface BatchRecycler {

  /** Receives the vectors of a released batch, in column order; nobody reads them any more. */
  void recycle(List<ColumnVector> columns);
}
