package dev.prefetch.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;

/**
 * The files of one reader and their plans, planned lazily and at most once each.
 *
 * <p>Threads: the consumer plans file 0 when the reader opens; producers (or the consumer on the
 * single path) plan later files as they reach them. {@link #plan(int)} is single-flight per file:
 * a second caller waits on the file's lock for the first one's plan. Plans are published through
 * that lock ({@code plans} is guarded by {@code locks[i]} per slot) and {@link #plannedOrNull} reads
 * them under the same lock. {@link #close()} runs after every reader of every plan is closed.
 */
final class FileSequence implements AutoCloseable {

  private final List<DataFile> files;
  private final ReadOptions options;
  private final ReadContext context;
  private final ScanCounters counters;
  private final Object[] locks;
  private final FilePlan[] plans;
  private volatile boolean closed;

  FileSequence(List<DataFile> files, ReadOptions options, ReadContext context,
      ScanCounters counters) {
    this.files = List.copyOf(files);
    this.options = options;
    this.context = context;
    this.counters = counters;
    this.locks = new Object[files.size()];
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new Object();
    }
    this.plans = new FilePlan[files.size()];
  }

  int size() {
    return files.size();
  }

  DataFile file(int index) {
    return files.get(index);
  }

  ScanCounters counters() {
    return counters;
  }

  /** The plan of file {@code index}, planning it if nobody has yet. Errors are not cached. */
  FilePlan plan(int index) throws IOException {
    synchronized (locks[index]) {
      if (plans[index] == null) {
        if (closed) {
          throw new IllegalStateException("reader is closed");
        }
        DataFile file = files.get(index);
        FileFormat format = FormatRegistry.formatOf(file, context.configuration());
        plans[index] = format.plan(file, options, context, counters);
      }
      return plans[index];
    }
  }

  /** Like {@link #plan(int)}, with failures wrapped into a {@link ReadException} naming the file. */
  FilePlan planForRead(int index) throws ReadException {
    try {
      return plan(index);
    } catch (ReadException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new ReadException(files.get(index), "cannot open", e);
    }
  }

  /** The plan of file {@code index} if it is planned, else null; never plans. */
  FilePlan plannedOrNull(int index) {
    synchronized (locks[index]) {
      return plans[index];
    }
  }

  /** Total ranges over the files planned so far. */
  long rangesPlanned() {
    long total = 0;
    for (int i = 0; i < plans.length; i++) {
      FilePlan plan = plannedOrNull(i);
      if (plan != null) {
        total += plan.ranges().size();
      }
    }
    return total;
  }

  /** Closes every plan; the first failure is thrown after all are closed. */
  @Override
  public void close() throws IOException {
    closed = true;
    IOException failure = null;
    for (int i = 0; i < plans.length; i++) {
      FilePlan plan;
      synchronized (locks[i]) {
        plan = plans[i];
        plans[i] = null;
      }
      if (plan != null) {
        try {
          plan.close();
        } catch (IOException | RuntimeException e) {
          if (failure == null) {
            failure = e instanceof IOException io ? io
                : new IOException("closing " + files.get(i) + " failed", e);
          }
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
