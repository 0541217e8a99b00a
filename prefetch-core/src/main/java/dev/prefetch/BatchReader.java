package dev.prefetch;

import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads the selected rows of one or more files as a sequence of {@link RecordBatch}es, in file
 * order and then ascending row order, the same for every thread count.
 *
 * <p>A reader is used by one thread (the consumer). {@link #close()} may be called at any time,
 * also in the middle of a scan; it stops every producer and releases every file handle before it
 * returns, within a second, whatever a producer is blocked on (see {@link #close()}).
 *
 * <p>Exceptions: {@link Readers#open}, {@link #next()} and {@link #close()} raise, for a file, only
 * a {@link ReadException} naming it (and the range, where there is one), or its subtype {@link
 * CorruptFileException} when the file is not valid; whatever a filesystem or format library threw
 * (an {@code IOException}, an {@code UncheckedIOException}, Hadoop's {@code FSError}, a library's
 * unchecked exception) is their cause. Besides: {@code java.io.FileNotFoundException} from open for
 * a missing file, {@link java.io.InterruptedIOException} for an interrupted wait, {@code
 * IllegalArgumentException} for bad caller input (open) and {@code IllegalStateException} for use
 * after close. A failing range ends the read on both paths alike: every batch before the failing
 * one is returned first, then the failure, so a scan that stops after N rows reads the same rows
 * with or without prefetching.
 */
public interface BatchReader extends Closeable {

  /** The projected columns of the first file. */
  Schema schema();

  /**
   * The next batch, or null at the end.
   *
   * @throws ReadException when reading failed (it names the file and range, with the cause)
   * @throws java.io.InterruptedIOException when the calling thread was interrupted while waiting;
   *     its interrupt flag is kept set
   * @throws IllegalStateException when the reader is closed
   */
  RecordBatch next() throws IOException;

  /** What the reader did so far. */
  ReaderMetrics metrics();

  /**
   * Stops producers and releases files; idempotent. Returns within a second: a producer stuck in
   * I/O that ignores interrupts has its streams closed from the closing thread, and one still stuck
   * after that is abandoned (it releases its files when the I/O returns) and counted in {@link
   * ReaderMetrics#producersAbandoned()}.
   *
   * @throws ReadException when a file could not be released
   */
  @Override
  void close() throws IOException;

  /**
   * The remaining batches as an iterator; read failures surface as {@link UncheckedIOException}.
   */
  default Iterator<RecordBatch> batches() {
    return new Iterator<>() {
      private RecordBatch pending;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (pending == null && !done) {
          try {
            pending = BatchReader.this.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          done = pending == null;
        }
        return pending != null;
      }

      @Override
      public RecordBatch next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        RecordBatch batch = pending;
        pending = null;
        return batch;
      }
    };
  }
}
