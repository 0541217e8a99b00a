package dev.prefetch.runtime;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The prefetching path: P {@link Producer}s fill their queues in an {@link Exchange}; the caller
 * (the consumer) takes batches in order.
 *
 * <p>Lifecycle: producers start in the constructor (own daemon threads named
 * {@code prefetch-<name>-<i>}, or tasks on the context's executor). {@link #close()} may run at any
 * time on the consumer thread: it stops the exchange, interrupts running producers, waits until
 * every producer has exited (each closes its file handles on the way out), then closes the plans.
 * After it returns no producer of this reader runs.
 */
final class PrefetchingBatchReader implements BatchReader {

  /**
   * How long close() waits for a producer stuck in uninterruptible I/O. A producer in a decode
   * sees the closed exchange at its next batch: the formats keep one batch's decode bounded, on
   * corrupt input too (format-orc ends an ORC run that is longer than its stream, where orc-core
   * would spin; see docs/ARCHITECTURE.md, "Streams that end").
   */
  static final long CLOSE_WAIT_SECONDS = 30;

  private final FileSequence files;
  private final Schema schema;
  private final PrefetchDecision decision;
  private final ReadContext context;
  private final ReaderStats stats = new ReaderStats();
  private final Exchange exchange;
  private final Producer[] producers;
  private final CountDownLatch exited;
  private final Thread[] threads;
  private boolean closed;
  /** True while the constructor submits producers; read by the submitted tasks. */
  private volatile boolean starting = true;

  PrefetchingBatchReader(FileSequence files, Schema schema, PrefetchDecision decision,
      int queueCapacity, long maxBufferedBytes, ReadContext context, String name) {
    this.files = files;
    this.schema = schema;
    this.decision = decision;
    this.context = context;
    int count = decision.parallelism();
    this.exchange = new Exchange(files, count, queueCapacity, maxBufferedBytes, stats);
    this.exited = new CountDownLatch(count);
    this.producers = new Producer[count];
    this.threads = new Thread[count];
    for (int i = 0; i < count; i++) {
      producers[i] = new Producer(i, exchange, exited);
    }
    start(context.executor(), name);
  }

  private void start(ExecutorService executor, String name) {
    Thread opener = Thread.currentThread();
    for (int i = 0; i < producers.length; i++) {
      if (executor != null) {
        Producer producer = producers[i];
        try {
          executor.execute(() -> {
            if (Thread.currentThread() == opener && starting) {
              // A caller-runs executor: the producer would fill its queue and then wait forever
              // for its consumer, which is this very thread, still inside the constructor.
              producer.cancel();
              exchange.fail(new ReadException(files.file(0), "the read context's "
                  + "executor ran a producer on the caller's thread; producers need threads of "
                  + "their own", null));
              return;
            }
            producer.run();
          });
        } catch (RuntimeException e) {
          // Rejected, or any other refusal: the producers already started must not be left
          // running with nobody to stop them, so the reader is built failed and close() works.
          producers[i].cancel();
          exchange.fail(new ReadException(files.file(0),
              "the read context's executor rejected a producer", e));
        }
      } else {
        Thread thread = new Thread(producers[i], "prefetch-" + name + "-" + i);
        thread.setDaemon(true);
        try {
          thread.start();
          threads[i] = thread;
        } catch (OutOfMemoryError | RuntimeException e) { // "unable to create native thread"
          producers[i].cancel();
          exchange.fail(new ReadException(files.file(0),
              "cannot start a producer thread", e));
        }
      }
    }
    starting = false;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public RecordBatch next() throws IOException {
    if (closed) {
      throw new IllegalStateException("reader is closed");
    }
    RecordBatch batch = exchange.take();
    stats.taken(batch); // counts it (null: the end), with the wait that ended with it
    return batch;
  }

  @Override
  public ReaderMetrics metrics() {
    return stats.snapshot(files, decision);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    exchange.close();
    for (Producer producer : producers) {
      producer.cancel();
    }
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
      // The latch says every producer released its files; joining our own threads then
      // guarantees none is alive when close() returns (an executor's threads live on, idle).
      while (true) {
        try {
          exited.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          for (Thread thread : threads) {
            if (thread != null) {
              thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
          }
          break;
        } catch (InterruptedException e) {
          interrupted = true; // finish closing first; restore the flag below
        }
      }
      files.close();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (context.metricsSink() != null) {
        context.metricsSink().accept(metrics());
      }
    }
  }
}
