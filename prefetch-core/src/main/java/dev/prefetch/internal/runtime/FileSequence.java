package dev.prefetch.internal.runtime;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.ColumnArrayPools;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FileFormats;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hadoop.fs.FSError;

/**
 * The files of one reader and their plans, planned lazily and at most once each.
 *
 * <p>Threads: the consumer plans file 0 when the reader opens; producers (or the consumer on the
 * single path) plan later files as they reach them. {@link #plan(int)} is single-flight per file: a
 * second caller waits (interruptibly) on the file's lock for the first one's plan. Plans are
 * written under that lock ({@code locks[i]} per slot) and published through {@code plans}, an
 * atomic array, so that {@link #plannedOrNull} and {@link #rangesPlanned} never wait: the exchange
 * calls them while holding its own lock, which must never wait for planning I/O (close and the
 * consumer's interrupt would wait with it). {@link #close()} runs after every reader of every plan
 * is closed (or abandoned, see PrefetchingBatchReader) and takes no planning lock: sequentially
 * consistent operations on {@code closed} and {@code plans} decide whether close or the planner
 * closes a plan that is published while close runs.
 *
 * <p>Planning ahead: a caller that finds file {@code i} being planned by another thread does not
 * wait at once; it first plans the next file after {@code i} that nobody plans yet ({@link
 * #planAhead}), so that with many small files the producers read footers side by side instead of
 * one after another, and the next claims find their files planned. It plans ahead only while fewer
 * plans are held ({@code held}) than twice the producers: each producer's file in flight and one
 * planned ahead for each. A limit of the producers alone left no room once every producer read a
 * file of its own, so with many small files on remote storage the claims planned one file at a time
 * while the others waited for them. A failure while planning ahead is dropped (errors are not
 * cached), and the claim that reaches that file plans it again and reports it in read order.
 */
final class FileSequence implements TaskSource, AutoCloseable {

  private final List<DataFile> files;
  private final ReadOptions options;

  /** How long the formats may make ranges: one rule for every file and format of the read. */
  private final RangeBudget budget;

  private final ReadContext context;
  private final ScanCounters counters;

  /** Per file: held while it is planned; waiters take it interruptibly, so close frees them. */
  private final ReentrantLock[] locks;

  private final AtomicReferenceArray<FilePlan> plans;

  /** Per file: range readers open on its plan now. */
  private final AtomicIntegerArray openReaders;

  /** Per file: 1 once every range of it is claimed (or read, on the single path). */
  private final AtomicIntegerArray claimsDone;

  /** Plans held now (set and not yet dropped): planning ahead stops at {@link #aheadLimit}. */
  private final AtomicInteger held = new AtomicInteger();

  /** Plans held at most for a caller to plan ahead: twice the read's producers. */
  private final int aheadLimit;

  /** Plans ahead in progress, each holding a slot under {@link #aheadLimit} until it is held. */
  private final AtomicInteger aheadPlanning = new AtomicInteger();

  /** Ranges of every plan made, kept after close so that final metrics still count them. */
  private final AtomicLong rangesPlanned = new AtomicLong();

  private volatile boolean closed;

  /** The read's pools of released arrays, which every range reader of the read shares. */
  private final ColumnArrayPools pools;

  /**
   * The read's byte arrays for pages, blocks and chunks, shared by every range reader: a pool of
   * its own on the single path, the budget's on the prefetching one ({@link #shareBuffers}).
   */
  private volatile ByteArrayPool buffers = new ByteArrayPool();

  FileSequence(
      List<DataFile> files, ReadOptions options, ReadContext context, ScanCounters counters) {
    this.files = List.copyOf(files);
    this.options = options;
    this.budget = RangeBudget.of(options, files.size());
    this.aheadLimit = options.prefetchEnabled() ? 2 * options.parallelism() : 0;
    this.context = context;
    this.pools = ColumnArrayPools.forRead(options);
    this.counters = counters;
    this.locks = new ReentrantLock[files.size()];
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
    this.plans = new AtomicReferenceArray<>(files.size());
    this.openReaders = new AtomicIntegerArray(files.size());
    this.claimsDone = new AtomicIntegerArray(files.size());
  }

  /**
   * Whether producers read their next range ahead where a plan can ({@code prefetch.read-ahead}).
   */
  boolean readsAhead() {
    return options.readAhead();
  }

  @Override
  public int size() {
    return files.size();
  }

  DataFile file(int index) {
    return files.get(index);
  }

  ScanCounters counters() {
    return counters;
  }

  /**
   * The plan of file {@code index}, planning it if nobody has yet. Errors are not cached. Null only
   * when the file was planned, handed out whole and its plan dropped ({@link #claimsDone}) while
   * the caller waited: a claimer that came too late, which then moves on.
   */
  FilePlan plan(int index) throws IOException {
    FilePlan planned = plans.get(index);
    if (planned != null) {
      return planned;
    }
    try {
      if (!locks[index].tryLock()) {
        planAhead(index); // another thread plans this file: plan a later one meanwhile
        locks[index].lockInterruptibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(
              "interrupted while another thread planned " + files.get(index));
      interrupted.initCause(e);
      throw interrupted;
    }
    try {
      FilePlan plan = plans.get(index);
      if (plan == null && claimsDone.get(index) == 1) {
        return null; // planned, read and dropped meanwhile (a late claimer): nothing to do
      }
      if (plan == null) {
        if (closed) {
          throw new IllegalStateException("reader is closed");
        }
        DataFile file = files.get(index);
        FileFormat format = FileFormats.of(file, context.configuration());
        plan = ReadScope.plan(format, file, options, budget, context, counters); // in a JFR scope
        plans.set(index, plan);
        held.incrementAndGet();
        rangesPlanned.addAndGet(plan.ranges().size());
        // close() does not wait for a plan in progress: if it ran meanwhile, it may have missed
        // this plan, and then the planner closes it (the CAS decides which of the two does).
        if (closed && plans.compareAndSet(index, plan, null)) {
          held.decrementAndGet();
          plan.close();
          throw new IllegalStateException("reader is closed");
        }
      }
      return plan;
    } finally {
      locks[index].unlock();
    }
  }

  /**
   * Plans the first file after {@code index} (among the next {@link #aheadLimit}) that is neither
   * planned nor being planned, unless enough plans are held already; never waits for a planning
   * lock. What fails is dropped: the file is planned again when claims reach it, and its failure
   * then comes in read order. An interrupt (close) is kept for the caller's wait that follows.
   */
  private void planAhead(int index) throws InterruptedIOException {
    // Files past index + aheadLimit are not worth planning yet: the producers reach them last.
    int end = (int) Math.min(files.size(), (long) index + 1 + aheadLimit);
    for (int next = index + 1; next < end && held.get() < aheadLimit; next++) {
      if (closed) {
        return;
      }
      if (plans.get(next) != null || claimsDone.get(next) == 1) {
        continue;
      }
      if (!locks[next].tryLock()) {
        continue; // someone plans it: look further
      }
      // A slot for this plan, taken before planning: two claimers planning ahead at once would
      // both see room under the limit and both plan, holding a plan more than the limit allows.
      if (aheadPlanning.incrementAndGet() + held.get() > aheadLimit) {
        aheadPlanning.decrementAndGet();
        locks[next].unlock();
        return;
      }
      try {
        if (plans.get(next) != null || claimsDone.get(next) == 1) {
          continue;
        }
        plan(next); // reentrant: this thread holds the lock, so it plans without waiting
        return;
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException | RuntimeException | LinkageError | StackOverflowError | FSError e) {
        // Dropped, see above (what a plan of a bad file may throw, as ReaderFactory.planFirst
        // lists it); an interrupt (close) that ended the I/O stays set for the wait.
        return;
      } finally {
        aheadPlanning.decrementAndGet();
        locks[next].unlock();
      }
    }
  }

  /**
   * Makes {@code pool} the read's buffers, before any reader is opened: the prefetching reader's,
   * whose free arrays count in the read's budget.
   */
  void shareBuffers(ByteArrayPool pool) {
    this.buffers = pool;
  }

  /**
   * Like {@link #plan(int)}, with failures wrapped into a {@link ReadException} naming the file.
   */
  @Override
  public FilePlan planForRead(int index) throws ReadException {
    try {
      return plan(index);
    } catch (IOException | RuntimeException | Error e) {
      // Errors too (a codec class missing, say): only here is it known which file failed.
      if (e instanceof ReadException read && read.file() != null) {
        throw read;
      }
      if (e instanceof CorruptFileException corrupt) {
        throw new CorruptFileException(files.get(index), null, corrupt);
      }
      throw new ReadException(files.get(index), "cannot open", e);
    }
  }

  /**
   * Opens a range reader on the plan of file {@code index}, reporting to {@code ledger}, counting
   * it, so that the plan is kept until the reader is closed through {@link #closeReader}. The
   * reader shares the read's array pools and counters, which outlive it.
   */
  RangeReader openReader(FilePlan plan, int index, MemoryLedger ledger) throws IOException {
    openReaders.incrementAndGet(index);
    try {
      return plan.openReader(new ReaderContext(ledger, pools, buffers, counters));
    } catch (IOException | RuntimeException | Error e) {
      openReaders.decrementAndGet(index);
      releaseIfDone(index);
      throw e;
    }
  }

  /** Closes a reader {@link #openReader} opened; the plan goes once nothing needs it. */
  void closeReader(RangeReader reader, int index) throws IOException {
    try {
      reader.close();
    } finally {
      openReaders.decrementAndGet(index);
      releaseIfDone(index);
    }
  }

  /**
   * Every range of file {@code index} has been handed out: once its last reader is closed, its plan
   * is closed and dropped, so a scan of many files holds the plans of the files in flight only, not
   * of every file it read.
   */
  @Override
  public void claimsDone(int index) {
    claimsDone.set(index, 1);
    releaseIfDone(index);
  }

  private void releaseIfDone(int index) {
    if (claimsDone.get(index) == 1 && openReaders.get(index) == 0) {
      FilePlan plan = plans.getAndSet(index, null);
      if (plan != null) {
        held.decrementAndGet();
        try {
          plan.close();
        } catch (IOException | RuntimeException ignored) {
          // A plan holds no file handle (readers own them); nothing is lost by not reporting.
        }
      }
    }
  }

  /** The plan of file {@code index} if it is planned, else null; never plans, never waits. */
  @Override
  public FilePlan plannedOrNull(int index) {
    return plans.get(index);
  }

  /** Total ranges over the files planned so far (also after close). */
  long rangesPlanned() {
    return rangesPlanned.get();
  }

  /**
   * Closes every plan made; the first failure is thrown after all are closed. Never waits for a
   * plan in progress (its metadata I/O may hang): {@link #plan} closes such a plan itself.
   */
  @Override
  public void close() throws IOException {
    closed = true;
    IOException failure = null;
    for (int i = 0; i < plans.length(); i++) {
      FilePlan plan = plans.getAndSet(i, null);
      if (plan != null) {
        try {
          plan.close();
        } catch (IOException | RuntimeException e) {
          if (failure == null) {
            failure =
                e instanceof ReadException read && read.file() != null
                    ? read
                    : new ReadException(files.get(i), "cannot close", e);
          }
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
