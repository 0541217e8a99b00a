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
 * returns.
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

  /** Stops producers and releases files. Idempotent. */
  @Override
  void close() throws IOException;

  /** The remaining batches as an iterator; read failures surface as {@link UncheckedIOException}. */
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
