package dev.prefetch.internal.runtime;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.spi.ByteArrayPool;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The prefetching path: P {@link Producer}s fill their queues in an {@link Exchange}; the caller
 * (the consumer) takes batches in order.
 *
 * <p>Lifecycle: producers start in the constructor (own daemon threads named {@code
 * prefetch-<name>-<i>}, or slices submitted to the context's executor, which then never wait for
 * room on its threads: see {@link Exchange}). {@link #close()} may run at any time on the consumer
 * thread and returns within {@link #CLOSE_BOUND_MILLIS}: it stops the exchange (which interrupts
 * running slices and hands close the producers not running, whose files it releases itself), waits
 * {@link #INTERRUPT_GRACE_MILLIS} for running producers to exit (each closes its file handles on
 * the way out), then aborts the readers of those still stuck in I/O that ignores interrupts
 * (closing their streams from this thread), waits {@link #ABORT_GRACE_MILLIS} more, and abandons
 * whatever is still stuck (counted in {@link ReaderMetrics#producersAbandoned()}): such a producer
 * finds the exchange closed and releases its reader when its I/O returns. Then it closes the plans,
 * without waiting for a plan in progress (its planner closes it). After close returns no producer
 * of this reader runs, except abandoned ones.
 */
final class PrefetchingBatchReader extends ScanBatchReader {

  /** How long close() waits for interrupted producers to exit before it aborts their I/O. */
  static final long INTERRUPT_GRACE_MILLIS = 400;

  /** How long close() then waits for aborted producers before it abandons them. */
  static final long ABORT_GRACE_MILLIS = 300;

  /** The bound on close(), whatever a producer is blocked on. */
  static final long CLOSE_BOUND_MILLIS = 1000;

  private final Exchange exchange;
  private final Producer[] producers;
  private final CountDownLatch exited;
  private final Thread[] threads;

  PrefetchingBatchReader(
      FileSequence files,
      Schema schema,
      PrefetchDecision decision,
      int queueCapacity,
      long maxBufferedBytes,
      ReadContext context,
      String name) {
    super(files, schema, decision, context);
    int count = decision.parallelism();
    ExecutorService executor = context.executor();
    this.exchange =
        new Exchange(files, count, queueCapacity, maxBufferedBytes, stats, executor != null);
    files.shareBuffers(
        new ByteArrayPool(sharedBufferBytes(maxBufferedBytes, count), exchange.newLedger()));
    this.exited = new CountDownLatch(count);
    this.producers = new Producer[count];
    this.threads = new Thread[count];
    for (int i = 0; i < count; i++) {
      producers[i] = new Producer(i, exchange, files, exited);
    }
    exchange.attach(
        new Slices() {
          @Override
          public void submit(int producer) {
            PrefetchingBatchReader.this.submit(executor, producer);
          }

          @Override
          public void help(int producer) {
            producers[producer].help();
          }
        });
    start(executor, name);
  }

  /**
   * Submits a slice of a producer. A refusal fails the read; the producer stays queued and close()
   * releases it. With a caller-runs executor the slice runs right here, on whichever thread submits
   * (the consumer, or the opener in this constructor): a slice never waits for the consumer, so
   * that is slower but cannot deadlock.
   */
  private void submit(ExecutorService executor, int producer) {
    try {
      executor.execute(producers[producer]);
    } catch (RuntimeException e) {
      exchange.fail(
          new ReadException(files.file(0), "the read context's executor rejected a producer", e),
          -1);
    }
  }

  private void start(ExecutorService executor, String name) {
    for (int i = 0; i < producers.length; i++) {
      if (executor != null) {
        submit(executor, i);
        continue;
      }
      Thread thread = new Thread(producers[i], "prefetch-" + name + "-" + i);
      thread.setDaemon(true);
      boolean started = false;
      try {
        thread.start();
        threads[i] = thread;
        started = true;
      } catch (RuntimeException e) {
        exchange.fail(new ReadException(files.file(0), "cannot start a producer thread", e), -1);
        started = true; // reported: the reader is built failed, and close() releases the rest
      } finally {
        if (!started) {
          // An Error (no native thread left, say) leaves the constructor: stop the producers
          // that did start, so that nobody is left running; the opener then closes the plans.
          stopProducers();
        }
      }
    }
  }

  @Override
  RecordBatch nextBatch() throws IOException {
    RecordBatch batch = exchange.take();
    stats.taken(batch); // counts it (null: the end), with the wait that ended with it
    return batch;
  }

  @Override
  void release() throws IOException {
    stopProducers();
    files.close();
  }

  /** Stops every producer within {@link #CLOSE_BOUND_MILLIS}, as the class doc describes. */
  private void stopProducers() {
    long start = System.nanoTime();
    for (int producer : exchange.close()) {
      producers[producer].release();
    }
    boolean interrupted = false;
    try {
      interrupted |= awaitExits(start, INTERRUPT_GRACE_MILLIS);
      if (exited.getCount() > 0) {
        for (int p = 0; p < producers.length; p++) {
          if (exchange.running(p)) {
            producers[p].abort();
          }
        }
        interrupted |= awaitExits(start, INTERRUPT_GRACE_MILLIS + ABORT_GRACE_MILLIS);
        stats.producersAbandoned.addAndGet(exited.getCount());
      }
      // Every producer that exited released its files; joining our own threads then guarantees
      // none of them is alive (an executor's threads live on, idle).
      for (int p = 0; p < threads.length; p++) {
        Thread thread = threads[p];
        long left = CLOSE_BOUND_MILLIS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (thread != null && left > 0 && !exchange.running(p)) { // not an abandoned one
          try {
            thread.join(left);
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt(); // finish closing first; restore the flag here
      }
    }
  }

  /**
   * Waits until every producer exited or {@code millis} after {@code start}; true if interrupted.
   */
  private boolean awaitExits(long start, long millis) {
    boolean interrupted = false;
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      try {
        exited.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }

  /**
   * The most free bytes the read's buffer pool keeps: what each producer's reader kept when every
   * reader had pools of its own, a quarter of its share of the budget for pages (at most 64 MiB)
   * and half for column chunks (at most 128 MiB), so that free buffers never crowd out the batches
   * the budget must leave room for.
   */
  static long sharedBufferBytes(long maxBufferedBytes, int producers) {
    long share = Math.max(1, maxBufferedBytes / producers);
    long each = Math.min(64L << 20, share / 4) + Math.min(128L << 20, share / 2);
    return each * producers;
  }
}
