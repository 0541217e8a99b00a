package dev.prefetch.spi;

import dev.prefetch.batch.RecordBatch;
import java.io.Closeable;
import java.io.IOException;

/**
 * Reads ranges of one file into batches. One instance is confined to one thread (a producer, or the
 * caller on the single path) and owns its file handle and decoders; the runtime calls {@link
 * #start} for each range it assigns, in ascending range order, then {@link #next} until it returns
 * null, then {@link #close} once. The runtime may move a reader between threads (a producer on an
 * executor resumes on whichever thread runs it), always with a happens-before edge between the two,
 * so a reader sees itself as used by one thread at a time. Only {@link #abort()} is called
 * concurrently.
 */
public interface RangeReader extends Closeable {

  /** Positions the reader on {@code range} (a range of the plan that opened it). */
  void start(ReadRange range) throws IOException;

  /**
   * The next batch of the current range (at most the read's batch size rows), or null when the
   * range is done. Batches of one range are in ascending row order and never cross its end.
   */
  RecordBatch next() throws IOException;

  /**
   * The range this reader will {@link #start} after the current one, told right after the current
   * one started when its plan {@link FilePlan#readsAhead() reads ahead}: the reader may issue that
   * range's reads now, asynchronously, so that they arrive while it decodes the current range. At
   * most one range ahead; called on the reader's thread; the reader must still read the range
   * correctly when {@link #start} comes for another one (it drops what it read ahead) or never
   * comes. What it reads ahead counts in its ledger. A failure to read ahead must not fail the read
   * (the range's own read reports it). The default does nothing.
   */
  default void prefetch(ReadRange next) throws IOException {}

  /**
   * Called from another thread (the one closing the read) when the reader's own thread has been
   * stuck in I/O for longer than close waits, interrupts having failed to end it: closes the
   * reader's file handles so that the blocked call fails and the thread comes back. It must be safe
   * to call at any time, concurrently with any other method and more than once; the reader is not
   * used again except to be closed by its own thread. The default does nothing (the runtime then
   * abandons the stuck thread).
   */
  default void abort() {}
}
