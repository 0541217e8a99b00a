package dev.prefetch.spi;

import dev.prefetch.batch.RecordBatch;
import java.io.Closeable;
import java.io.IOException;

/**
 * Reads ranges of one file into batches. One instance is confined to one thread (a producer, or
 * the caller on the single path) and owns its file handle and decoders; the runtime calls
 * {@link #start} for each range it assigns, in ascending range order, then {@link #next} until it
 * returns null, then {@link #close} once.
 */
public interface RangeReader extends Closeable {

  /** Positions the reader on {@code range} (a range of the plan that opened it). */
  void start(ReadRange range) throws IOException;

  /**
   * The next batch of the current range (at most the read's batch size rows), or null when the
   * range is done. Batches of one range are in ascending row order and never cross its end.
   */
  RecordBatch next() throws IOException;
}
