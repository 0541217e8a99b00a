package dev.prefetch.bench.trino;

import dev.prefetch.testkit.scan.ValueSums;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file's splits (Parquet row groups, ORC stripes) read by a fixed number of threads, as an engine
 * runs a single-threaded file reader: each thread takes the next split not yet taken and reads it
 * with a reader of its own, so the threads share the file's work as evenly as its splits allow (two
 * row groups of unequal size keep one thread busier, as they do in the engine).
 *
 * <p>Threads: the pool's, one task per thread and scan; each task owns its {@link ValueSums}. The
 * only shared state is the counter of splits taken. The caller merges the tasks' sums after every
 * task's future completed, which orders their writes before its reads. A failed task's error is
 * rethrown once every task has ended; the pool lives as long as the trial ({@link #close}).
 */
public final class TrinoSplits implements AutoCloseable {

  /** Reads the splits it takes from {@code next} into {@code sums}. */
  public interface Task {
    void run(AtomicInteger next, ValueSums sums) throws IOException;
  }

  private final int threads;
  private final ExecutorService pool;

  /**
   * @param threads readers at once; 1 reads on the calling thread
   */
  public TrinoSplits(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.threads = threads;
    this.pool =
        threads == 1
            ? null
            : Executors.newFixedThreadPool(
                threads,
                r -> {
                  Thread t = new Thread(r, "trino-split-reader");
                  t.setDaemon(true);
                  return t;
                });
  }

  /** Every split read once by the threads; the sums of all of them, over {@code columns}. */
  public ValueSums run(int columns, Task task) throws IOException {
    AtomicInteger next = new AtomicInteger();
    ValueSums total = new ValueSums(columns);
    if (pool == null) {
      task.run(next, total);
      return total;
    }
    List<Future<ValueSums>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      futures.add(
          pool.submit(
              () -> {
                ValueSums sums = new ValueSums(columns);
                task.run(next, sums);
                return sums;
              }));
    }
    IOException failure = null;
    for (Future<ValueSums> future : futures) {
      try {
        ValueSums sums = future.get();
        for (int c = 0; c < columns; c++) {
          total.addPartial(c, sums.sum(c), sums.nulls(c));
        }
        total.addRows(sums.rows());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        futures.forEach(f -> f.cancel(true));
        throw new InterruptedIOException("interrupted while the split readers ran");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (failure == null) {
          failure =
              cause instanceof IOException io
                  ? io
                  : cause instanceof UncheckedIOException u
                      ? u.getCause()
                      : new IOException("a split reader failed: " + cause, cause);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return total;
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
