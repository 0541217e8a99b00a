package dev.prefetch.internal.jfr;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.spi.CounterListener;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Attributes what {@link ScanCounters} counts to the file plan or read range a thread is working
 * on, for {@link FilePlannedEvent} and {@link RangeReadEvent}.
 *
 * <p>Threads and ownership: a scope belongs to the thread that opened it and lives in that thread's
 * {@link #CURRENT} slot; only that thread adds to its tallies, so they are plain fields. Scopes
 * nest (a plan inside a range, or two single-path readers consumed in turns on one thread): an add
 * goes to the innermost scope that counts its counters, and a scope may be closed out of order (it
 * is unlinked from the thread's chain). A scope counts the adds of its own reader's counters only
 * ({@code counters}), or, when opened with null (a producer thread, which runs one reader's range
 * at a time), every add on its thread.
 *
 * <p>Why the sums hold: every byte and request a format counts is counted on the thread that reads
 * it, inside the plan of its file (metadata) or inside the range being read (data), so over a read
 * the events' bytes add up to {@link ScanCounters#BYTES_READ}, their requests to {@link
 * ScanCounters#READ_REQUESTS}, the plans' footer bytes to {@link ScanCounters#FOOTER_BYTES_READ}.
 *
 * <p>Cost when nothing records: no scope is ever opened (each opening site asks its event first),
 * so {@link #anyOpen()} stays false and {@link ScanCounters#add} pays one volatile read in {@link
 * #LISTENER}.
 */
public final class ReadScope {

  /** What the runtime's counters tell of every add: counted into this thread's scope, if any. */
  public static final CounterListener LISTENER =
      (counters, name, delta) -> {
        if (anyOpen()) { // a JFR recording attributes the count to a plan or range
          count(counters, name, delta);
        }
      };

  private static final ThreadLocal<ReadScope> CURRENT = new ThreadLocal<>();

  /** Scopes open in this JVM; while 0, counters skip the thread-local look-up. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final ScanCounters counters;

  /** The scope this one was opened inside, or null; changed only when a scope is unlinked. */
  private ReadScope outer;

  private final RangeReadEvent range; // null for a plan's scope
  private long bytesRead;
  private long requests;
  private long footerReads;
  private long footerBytes;

  private ReadScope(ScanCounters counters, ReadScope outer, RangeReadEvent range) {
    this.counters = counters;
    this.outer = outer;
    this.range = range;
  }

  /** Whether any thread has a scope open (then {@link #count} must be called). */
  public static boolean anyOpen() {
    return OPEN.get() != 0;
  }

  /** Adds a counter's delta to this thread's innermost scope, if it counts {@code source}. */
  public static void count(ScanCounters source, String name, long delta) {
    ReadScope scope = CURRENT.get();
    while (scope != null && scope.counters != null && scope.counters != source) {
      scope = scope.outer;
    }
    if (scope == null) {
      return;
    }
    switch (name) {
      case ScanCounters.BYTES_READ -> scope.bytesRead += delta;
      case ScanCounters.READ_REQUESTS -> scope.requests += delta;
      case ScanCounters.FOOTER_READS -> scope.footerReads += delta;
      case ScanCounters.FOOTER_BYTES_READ -> scope.footerBytes += delta;
      default -> {
        // other counters have no event field
      }
    }
  }

  /**
   * {@code format.plan(...)}, inside a scope that becomes a {@link FilePlannedEvent} when that
   * event is recorded (also when planning fails, so the bytes it read are not lost).
   */
  public static FilePlan plan(
      FileFormat format,
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters)
      throws IOException {
    FilePlannedEvent event = new FilePlannedEvent();
    if (!event.isEnabled()) {
      return format.plan(file, options, budget, context, counters);
    }
    ReadScope scope = open(counters, null);
    event.begin();
    FilePlan plan = null;
    try {
      plan = format.plan(file, options, budget, context, counters);
      return plan;
    } finally {
      close(scope);
      event.end();
      if (event.shouldCommit()) {
        event.file = file.toString();
        event.ranges = plan == null ? 0 : plan.ranges().size();
        event.footerReads = scope.footerReads;
        event.footerBytes = scope.footerBytes;
        event.fromCache = plan != null && scope.footerReads == 0;
        event.bytesRead = scope.bytesRead;
        event.requests = scope.requests;
        event.commit();
      }
    }
  }

  /**
   * Starts the {@link RangeReadEvent} of {@code range} on this thread when that event is recorded;
   * a range this thread still has open is ended first (as not completed).
   *
   * @param counters the reader's counters, or null on a thread that reads for one reader only
   */
  public static void beginRange(ScanCounters counters, DataFile file, ReadRange range) {
    if (openRange(counters) != null) {
      endRange(counters, false);
    }
    RangeReadEvent event = new RangeReadEvent();
    if (!event.isEnabled()) {
      return;
    }
    event.file = file.toString();
    event.range = range.describe();
    event.firstRow = range.firstRow();
    event.rowCount = range.rowCount();
    open(counters, event);
    event.begin();
  }

  /** Ends and commits this thread's open range of {@code counters}, if there is one. */
  public static void endRange(ScanCounters counters, boolean completed) {
    ReadScope scope = openRange(counters);
    if (scope == null) {
      return;
    }
    close(scope);
    RangeReadEvent event = scope.range;
    event.end();
    if (event.shouldCommit()) {
      event.bytesRead = scope.bytesRead;
      event.requests = scope.requests;
      event.completed = completed;
      event.commit();
    }
  }

  /**
   * Detaches this thread's open range of a thread that reads for one reader only (opened with null
   * counters), so that the read can go on on another thread ({@link #resume}): a producer on an
   * executor parks and later runs on whichever thread resumes it. Null when none is open.
   */
  public static ReadScope suspendRange() {
    ReadScope scope = openRange(null);
    if (scope != null) {
      close(scope);
    }
    return scope;
  }

  /** Attaches, as this thread's innermost, a scope {@link #suspendRange} detached; null: none. */
  public static void resume(ReadScope scope) {
    if (scope == null) {
      return;
    }
    scope.outer = CURRENT.get();
    CURRENT.set(scope);
    OPEN.incrementAndGet();
  }

  private static ReadScope open(ScanCounters counters, RangeReadEvent range) {
    ReadScope scope = new ReadScope(counters, CURRENT.get(), range);
    CURRENT.set(scope);
    OPEN.incrementAndGet();
    return scope;
  }

  /** This thread's open range scope of {@code counters}, or null. */
  private static ReadScope openRange(ScanCounters counters) {
    for (ReadScope s = CURRENT.get(); s != null; s = s.outer) {
      if (s.range != null && s.counters == counters) {
        return s;
      }
    }
    return null;
  }

  /** Unlinks {@code scope} from this thread's chain, wherever it is in it. */
  private static void close(ReadScope scope) {
    ReadScope current = CURRENT.get();
    if (current == scope) {
      if (scope.outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(scope.outer);
      }
    } else {
      ReadScope inner = current;
      while (inner != null && inner.outer != scope) {
        inner = inner.outer;
      }
      if (inner == null) {
        return; // not on this thread's chain: closed already
      }
      inner.outer = scope.outer;
    }
    OPEN.decrementAndGet();
  }
}
