package dev.prefetch.internal.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.RangeReader;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;

/**
 * One producer: claims tasks from the {@link Exchange}, reads them with its own {@link RangeReader}
 * (one per file, so its own file handle and decoders), and queues the batches.
 *
 * <p>It decodes a batch only after the exchange reserved room for it in the budget ({@link
 * Exchange#reserve}). It runs in slices (see {@link Exchange}): on a thread of its reader, one
 * slice for its whole life; on the context's executor, a slice ends when the producer parks for
 * room and the exchange resubmits it when room frees. Its fields are its state between slices and
 * are touched only by the one owner the exchange's run state names: the thread running the slice,
 * or, once the producer is parked or queued at close, the closing thread ({@link #release}). Each
 * hand-over of ownership passes through the exchange's lock, which orders the writes.
 *
 * <p>It ends when there is nothing left to claim, when the exchange stops (close or another
 * producer's failure), or on its own failure, which it reports to the exchange. In every case its
 * reader is closed and {@code exited} counted down once, so that when {@link
 * PrefetchingBatchReader#close()} has seen every producer exit, no producer holds a file handle.
 */
final class Producer implements Runnable {

  private final int id;
  private final Exchange exchange;
  private final FileSequence files;
  private final CountDownLatch exited;

  // The producer's state, owned as described above.
  /** Volatile for {@link #abort()}, which close() calls from its own thread. */
  private volatile RangeReader reader;

  /** What {@link #reader} holds besides its batches, counted in the budget until it closes. */
  private ReaderLedger ledger;

  private int readerFile = -1;
  private DataFile readerData; // the file of reader, named when closing it fails
  private TaskTable.Task task;

  /** The task claimed ahead of {@link #task} (its plan reads ahead), or null. */
  private TaskTable.Task ahead;

  /** Whether the budget granted room for the next batch of {@link #task} (see Exchange). */
  private boolean reserved;

  /** The size of this producer's last batch: what it reserves for the next. */
  private long lastBatchBytes;

  /** A batch read but not yet admitted (kept while parked). */
  private RecordBatch pending;

  /**
   * The JFR scope of the range being read while no slice runs it: detached from its thread before a
   * put that may end the slice, attached again to whichever thread runs the next one. Null unless a
   * recording asks for range events.
   */
  private ReadScope suspendedRange;

  Producer(int id, Exchange exchange, FileSequence files, CountDownLatch exited) {
    this.id = id;
    this.exchange = exchange;
    this.files = files;
    this.exited = exited;
  }

  /** A slice on a thread of its own or of the executor; does nothing unless it is due. */
  @Override
  public void run() {
    if (exchange.beginSlice(id)) {
      slice(false);
    }
  }

  /** A slice on the consumer's thread, which the exchange already made this producer's owner. */
  void help() {
    slice(true);
  }

  private void slice(boolean helper) {
    ReadScope.resume(suspendedRange);
    suspendedRange = null;
    Exchange.Admission outcome;
    try {
      outcome = work(helper);
    } catch (Throwable t) {
      // Not swallowed: every failure, an Error included, must reach the consumer, which would
      // otherwise wait for this producer's batches forever.
      exchange.fail(
          Failures.wrap(
              task == null ? null : task.plan().file(), task == null ? null : task.range(), t),
          task == null ? -1 : task.seq());
      outcome = Exchange.Admission.STOPPED;
    }
    if (outcome == Exchange.Admission.PARKED) {
      return; // the exchange owns this producer now; touch nothing
    }
    if (outcome == Exchange.Admission.YIELD && exchange.yieldSlice(id)) {
      exchange.submit(id); // the slice goes on on the executor (duplicates are harmless)
      return;
    }
    ReadScope.resume(suspendedRange); // a yield that ends here: the range ends on this thread
    suspendedRange = null;
    finish();
  }

  /** Claims, reads and queues until nothing is left, the exchange stops, or the slice ends. */
  private Exchange.Admission work(boolean helper) throws IOException, InterruptedException {
    while (true) {
      if (pending != null) {
        if (ReadScope.anyOpen()) {
          suspendedRange = ReadScope.suspendRange(); // before put can hand this producer over
        }
        Exchange.Admission admitted = exchange.put(id, task, pending, helper);
        if (admitted == Exchange.Admission.PARKED) {
          return admitted;
        }
        if (admitted != Exchange.Admission.YIELD) {
          ReadScope.resume(suspendedRange); // still this thread's slice
          suspendedRange = null;
        }
        if (admitted == Exchange.Admission.STOPPED) {
          return admitted;
        }
        pending = null;
        if (admitted == Exchange.Admission.YIELD) {
          return admitted;
        }
      }
      if (task == null) {
        TaskTable.Task next = ahead != null ? ahead : exchange.claim(id);
        ahead = null;
        if (next == null) {
          return Exchange.Admission.STOPPED;
        }
        task = next;
        ReadScope.beginRange(null, next.plan().file(), next.range());
        if (next.fileIndex() != readerFile) {
          try {
            closeReader();
          } catch (IOException | RuntimeException e) {
            throw Failures.wrap(readerData, null, e);
          }
          readerFile = -1;
          ledger = exchange.newLedger();
          reader = files.openReader(next.plan(), next.fileIndex(), ledger);
          readerFile = next.fileIndex();
          readerData = next.plan().file();
        }
        reader.start(next.range());
        if (files.readsAhead() && next.plan().readsAhead()) {
          readAhead();
        }
      }
      if (!reserved) {
        if (ReadScope.anyOpen()) {
          suspendedRange = ReadScope.suspendRange(); // before reserve can hand this producer over
        }
        Exchange.Admission granted = exchange.reserve(id, task, lastBatchBytes);
        if (granted == Exchange.Admission.PARKED) {
          return granted; // resumed later, it reserves again
        }
        ReadScope.resume(suspendedRange); // still this thread's slice
        suspendedRange = null;
        if (granted == Exchange.Admission.STOPPED) {
          return granted;
        }
        reserved = true;
      }
      RecordBatch batch = reader.next();
      reserved = false;
      if (batch == null) {
        boolean wanted = exchange.endTask(id, task.seq());
        ReadScope.endRange(null, true);
        task = null;
        if (helper && wanted) {
          return Exchange.Admission.YIELD;
        }
        continue;
      }
      pending = batch;
      lastBatchBytes = batch.sizeInBytes();
    }
  }

  /**
   * Claims this producer's next task now, while its current one has only started, and tells the
   * reader when it is of the same file, so that the next range's reads overlap with this range's
   * decoding. The claim keeps the protocol's order: a producer still works its claims in increasing
   * order, so its queue stays ordered.
   */
  private void readAhead() throws IOException {
    ahead = exchange.claim(id);
    if (ahead != null && ahead.fileIndex() == readerFile) {
      reader.prefetch(ahead.range());
    }
  }

  /** Closes the current reader, if any, and takes back what its ledger still counts. */
  private void closeReader() throws IOException {
    RangeReader current = reader;
    ReaderLedger held = ledger;
    reader = null;
    ledger = null;
    try {
      if (current != null) {
        files.closeReader(current, readerFile);
      }
    } finally {
      if (held != null) {
        held.close();
      }
    }
  }

  /** Closes the reader, reports a failure to close, and marks this producer exited. */
  private void finish() {
    pending = null;
    try {
      closeReader();
    } catch (IOException | RuntimeException e) {
      exchange.fail(Failures.wrap(readerData, null, e), -1);
    } finally {
      ReadScope.endRange(null, false); // a range cut short still reports what it read
      if (exchange.producerFinished(id)) {
        Thread.interrupted(); // the interrupt close() sent this slice must not outlive it
      }
      exited.countDown();
    }
  }

  /**
   * Releases the files of a producer that close() took over (parked, queued or never started):
   * called on the closing thread, which owns the state now. Failures to close are ignored, as every
   * failure after close is.
   */
  void release() {
    pending = null;
    suspendedRange = null; // its range event is dropped with the read
    try {
      closeReader();
    } catch (IOException | RuntimeException ignored) {
      // the read is closed; nobody is left to tell
    } finally {
      exited.countDown();
    }
  }

  /**
   * Closes the file handles of a producer whose slice is stuck in I/O that ignores interrupts, from
   * the closing thread, so that the I/O fails (see {@link RangeReader#abort()}).
   */
  void abort() {
    RangeReader current = reader;
    if (current != null) {
      try {
        current.abort();
      } catch (RuntimeException ignored) {
        // best effort: the producer is abandoned either way
      }
    }
  }
}
