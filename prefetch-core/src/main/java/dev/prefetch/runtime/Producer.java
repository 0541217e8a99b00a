package dev.prefetch.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.RangeReader;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One producer: claims tasks from the {@link Exchange}, reads them with its own
 * {@link RangeReader} (one per file, so its own file handle and decoders), and queues the batches.
 *
 * <p>It runs on a thread of its reader or on the context's executor. It exits when there is
 * nothing left to claim, when the exchange stops (close or another producer's failure), or on its
 * own failure, which it reports to the exchange. In every case it closes its reader and counts
 * down {@code exited} last, so that when {@link PrefetchingBatchReader#close()} has seen every
 * producer exit, no producer holds a file handle.
 */
final class Producer implements Runnable {

  private static final int NEW = 0;
  private static final int RUNNING = 1;
  private static final int CANCELLED = 2;

  private final int id;
  private final Exchange exchange;
  private final CountDownLatch exited;
  private final AtomicInteger state = new AtomicInteger(NEW);
  private Thread runner; // guarded by this

  Producer(int id, Exchange exchange, CountDownLatch exited) {
    this.id = id;
    this.exchange = exchange;
    this.exited = exited;
  }

  @Override
  public void run() {
    if (!state.compareAndSet(NEW, RUNNING)) {
      return; // cancelled before it started; cancel() counted it as exited
    }
    synchronized (this) {
      runner = Thread.currentThread();
    }
    exchange.producerStarted();
    RangeReader reader = null;
    int readerFile = -1;
    DataFile readerData = null; // the file of reader, named when closing it fails
    Exchange.Task task = null;
    try {
      while ((task = exchange.claim(id)) != null) {
        ReadScope.beginRange(null, task.plan().file(), task.range());
        if (task.fileIndex() != readerFile) {
          RangeReader previous = reader;
          reader = null;
          if (previous != null) {
            try {
              previous.close();
            } catch (IOException | RuntimeException e) {
              throw Failures.wrap(readerData, null, e);
            }
          }
          reader = task.plan().openReader();
          readerFile = task.fileIndex();
          readerData = task.plan().file();
        }
        reader.start(task.range());
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          if (!exchange.put(id, task.seq(), batch)) {
            return;
          }
        }
        exchange.endTask(id, task.seq());
        ReadScope.endRange(null, true);
      }
    } catch (Throwable t) {
      exchange.fail(Failures.wrap(task == null ? null : task.plan().file(),
          task == null ? null : task.range(), t));
    } finally {
      try {
        if (reader != null) {
          reader.close();
        }
      } catch (IOException | RuntimeException e) {
        exchange.fail(Failures.wrap(readerData, null, e));
      } finally {
        ReadScope.endRange(null, false); // a range cut short still reports what it read
        exchange.producerFinished();
        synchronized (this) {
          runner = null; // from here on cancel() cannot interrupt this thread
        }
        Thread.interrupted(); // an executor thread must not inherit our close() interrupt
        exited.countDown();
      }
    }
  }

  /**
   * Stops this producer: one that never started is marked exited here; a running one is
   * interrupted out of any blocking I/O (it also sees the closed exchange at its next step).
   */
  void cancel() {
    if (state.compareAndSet(NEW, CANCELLED)) {
      exited.countDown();
      return;
    }
    // Under the lock that run() takes to clear runner: an interrupt is delivered either while
    // this producer still runs (and run() clears it on the way out) or not at all, never to a
    // pool thread that has moved on to another task.
    synchronized (this) {
      Thread thread = runner;
      if (thread != null) {
        thread.interrupt();
      }
    }
  }
}
