package dev.prefetch.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The files of one reader and their plans, planned lazily and at most once each.
 *
 * <p>Threads: the consumer plans file 0 when the reader opens; producers (or the consumer on the
 * single path) plan later files as they reach them. {@link #plan(int)} is single-flight per file:
 * a second caller waits on the file's lock for the first one's plan. Plans are written under
 * that lock ({@code locks[i]} per slot) and published through {@code plans}, an atomic array, so
 * that {@link #plannedOrNull} and {@link #rangesPlanned} never wait: the exchange calls them while
 * holding its own lock, which must never wait for planning I/O (close and the consumer's
 * interrupt would wait with it). {@link #close()} runs after every reader of every plan is closed.
 */
final class FileSequence implements AutoCloseable {

  private final List<DataFile> files;
  private final ReadOptions options;
  private final ReadContext context;
  private final ScanCounters counters;
  private final Object[] locks;
  private final AtomicReferenceArray<FilePlan> plans;
  /** Ranges of every plan made, kept after close so that final metrics still count them. */
  private final AtomicLong rangesPlanned = new AtomicLong();
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
    this.plans = new AtomicReferenceArray<>(files.size());
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
      FilePlan plan = plans.get(index);
      if (plan == null) {
        if (closed) {
          throw new IllegalStateException("reader is closed");
        }
        DataFile file = files.get(index);
        FileFormat format = FormatRegistry.formatOf(file, context.configuration());
        plan = ReadScope.plan(format, file, options, context, counters); // in a JFR scope
        plans.set(index, plan);
        rangesPlanned.addAndGet(plan.ranges().size());
      }
      return plan;
    }
  }

  /** Like {@link #plan(int)}, with failures wrapped into a {@link ReadException} naming the file. */
  FilePlan planForRead(int index) throws ReadException {
    try {
      return plan(index);
    } catch (ReadException e) {
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      // Errors too (a codec class missing, say): only here is it known which file failed.
      throw new ReadException(files.get(index), "cannot open", e);
    }
  }

  /** The plan of file {@code index} if it is planned, else null; never plans, never waits. */
  FilePlan plannedOrNull(int index) {
    return plans.get(index);
  }

  /** Total ranges over the files planned so far (also after close). */
  long rangesPlanned() {
    return rangesPlanned.get();
  }

  /** Closes every plan; the first failure is thrown after all are closed. */
  @Override
  public void close() throws IOException {
    closed = true;
    IOException failure = null;
    for (int i = 0; i < plans.length(); i++) {
      FilePlan plan;
      synchronized (locks[i]) { // waits for a plan in progress, then closes it
        plan = plans.getAndSet(i, null);
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
