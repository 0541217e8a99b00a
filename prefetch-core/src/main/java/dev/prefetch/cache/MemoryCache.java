package dev.prefetch.cache;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.RemovalCause;
import com.google.common.cache.RemovalNotification;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import dev.prefetch.internal.jfr.CacheLookupEvent;
import dev.prefetch.internal.jfr.Events;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory {@link Cache} bounded by the total {@link CacheValue#weight() weight} (bytes) of its
 * values, evicting least recently used entries first.
 *
 * <pre>{@code
 * Cache cache = MemoryCache.builder().maximumBytes(64L << 20).build();
 * }</pre>
 *
 * <h2>Design</h2>
 *
 * <p><b>Engine.</b> The entries live in a Guava {@code com.google.common.cache.Cache} built with a
 * byte weigher, {@code maximumWeight(maximumBytes)} and {@code concurrencyLevel(1)}. Guava rather
 * than Caffeine: Guava is already a dependency of this module (and of Hadoop), so the cache adds no
 * jar and no version to align; a metadata cache sees few writes (one per file version) and
 * lock-free reads, where Caffeine's write buffers buy nothing measurable. One segment makes the
 * bound exact: Guava splits the weight bound evenly over its segments, so with several segments an
 * entry could be evicted while the cache as a whole is far from full. Loads run outside the segment
 * lock, so one segment does not serialise loaders of different keys.
 *
 * <p><b>Single flight.</b> {@link #get} calls Guava's {@code get(key, callable)}. The first thread
 * that misses installs a loading placeholder under the segment lock and runs the loader on its own
 * thread, outside the lock; every other thread that asks for the key meanwhile finds the
 * placeholder and waits for its outcome (uninterruptibly: an interrupt is kept as the thread's
 * flag, and the wait lasts as long as the loader's I/O). On success the value replaces the
 * placeholder and every waiter returns that same instance. On failure the placeholder is removed,
 * nothing is cached, and the loader thread and each waiter rethrow the loader's own exception
 * instance (an {@link IOException} stays that IOException, a RuntimeException or Error stays
 * itself); the next {@code get} loads again. One failure is not shared: a load cancelled by its own
 * thread's interrupt (an {@code InterruptedIOException}, a {@code ClosedByInterruptException}, or
 * any IOException thrown while the loading thread's interrupt flag is set: a reader being closed or
 * a task being cancelled) fails only that thread; each waiter then loads again itself,
 * single-flight among the waiters, so one cancelled reader never fails the others.
 *
 * <p><b>What is atomic.</b> Each method is atomic for its key: a lookup sees either no entry or a
 * whole value. {@link #sizeInBytes()} and {@link #stats()} are not atomic snapshots across keys or
 * counters: while other threads work, the numbers may reflect some operations and not others.
 *
 * <p><b>Counters</b> (each a {@link LongAdder}, so counting never contends):
 *
 * <ul>
 *   <li>{@code hits}: {@code get} calls that returned a cached value without running their loader,
 *       including waiters that shared a concurrent load; {@code getIfPresent} calls that found a
 *       value.
 *   <li>{@code misses}: {@code get} calls that ran their loader (one per load, never per waiter);
 *       {@code getIfPresent} calls that found nothing (or only a load in progress).
 *   <li>{@code loads} / {@code loadFailures}: loader runs that returned a value / threw. A waiter
 *       that receives a failure counts neither a hit nor a miss.
 *   <li>{@code totalLoadNanos}: wall time inside loaders, successful or not.
 *   <li>{@code bypasses}: calls to {@link #recordBypass()}.
 *   <li>{@code evictions} / {@code evictedBytes}: entries (and their bytes) removed to respect the
 *       byte bound. Explicit invalidation and replacement by {@code put} are not evictions.
 * </ul>
 *
 * <p><b>Oversized values.</b> A value heavier than {@code maximumBytes} can never fit. It is not
 * cached (not counted as an eviction either): {@code get} returns it to the loader thread and its
 * waiters, and a {@code put} of it only removes any previous value of the key. Every later {@code
 * get} of that key loads again.
 */
public final class MemoryCache implements Cache {

  private final long maximumBytes;
  private final com.google.common.cache.Cache<CacheKey, CacheValue> entries;

  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder loads = new LongAdder();
  private final LongAdder loadFailures = new LongAdder();
  private final LongAdder totalLoadNanos = new LongAdder();
  private final LongAdder bypasses = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder evictedBytes = new LongAdder();

  private MemoryCache(long maximumBytes) {
    this.maximumBytes = maximumBytes;
    this.entries =
        CacheBuilder.newBuilder()
            .concurrencyLevel(1)
            .maximumWeight(maximumBytes)
            .<CacheKey, CacheValue>weigher((key, value) -> value.length())
            .removalListener(this::onRemoval)
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The bound on the total weight of the values held. */
  public long maximumBytes() {
    return maximumBytes;
  }

  @Override
  public CacheValue get(CacheKey key, Loader loader) throws IOException {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(loader, "loader is null");
    while (true) {
      // Only the thread whose callable Guava runs sets this; it is read on the same thread.
      boolean[] ranLoader = new boolean[1];
      CacheLookupEvent event = Events.beginCacheLookup();
      try {
        CacheValue value = entries.get(key, () -> load(key, loader, ranLoader));
        counted(key, !ranLoader[0], event);
        return value;
      } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
        if (e.getCause() instanceof CancelledLoad cancelled) {
          if (ranLoader[0]) {
            counted(key, false, event);
            throw cancelled.cause; // this thread's own cancellation
          }
          continue; // another reader's load was cancelled: not a failure of this one; load again
        }
        return failed(e, ranLoader[0], key, event);
      }
    }
  }

  /** The value of an oversized load, or the loader's failure rethrown (see the class doc). */
  private CacheValue failed(Throwable e, boolean ranLoader, CacheKey key, CacheLookupEvent event)
      throws IOException {
    Throwable cause = e.getCause();
    if (cause instanceof OversizedValue oversized) {
      // Not cached on purpose; the loader thread and its waiters still get the value.
      counted(key, !ranLoader, event);
      return oversized.value;
    }
    if (ranLoader) {
      counted(key, false, event);
    }
    throw rethrow(cause, e);
  }

  /** Runs the loader on the calling thread inside Guava's single-flight window. */
  private CacheValue load(CacheKey key, Loader loader, boolean[] ranLoader) throws IOException {
    ranLoader[0] = true;
    long start = System.nanoTime();
    CacheValue value;
    try {
      value = loader.load(key);
      if (value == null) {
        throw new NullPointerException("loader returned null for " + key);
      }
    } catch (IOException | RuntimeException | Error e) {
      totalLoadNanos.add(System.nanoTime() - start);
      loadFailures.increment();
      if (e instanceof InterruptedIOException
          || e instanceof ClosedByInterruptException
          || (e instanceof IOException && Thread.currentThread().isInterrupted())) {
        // The loading reader was cancelled: its waiters must not fail with it (see the class doc).
        throw new CancelledLoad((IOException) e);
      }
      throw e;
    }
    totalLoadNanos.add(System.nanoTime() - start);
    loads.increment();
    if (value.weight() > maximumBytes) {
      // Thrown rather than returned so that Guava removes the placeholder instead of caching.
      throw new OversizedValue(value);
    }
    return value;
  }

  /** The loader's own exception: an IOException, RuntimeException or Error, unwrapped. */
  private static IOException rethrow(Throwable cause, Throwable wrapper) {
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof RuntimeException re) {
      throw re;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    // Loaders declare only IOException; anything else was thrown sneakily.
    return new IOException("cache loader failed: " + cause, cause != null ? cause : wrapper);
  }

  @Override
  public CacheValue getIfPresent(CacheKey key) {
    Objects.requireNonNull(key, "key is null");
    CacheLookupEvent event = Events.beginCacheLookup();
    CacheValue value = entries.getIfPresent(key);
    counted(key, value != null, event);
    return value;
  }

  /** Counts a hit or a miss, and reports it as a JFR event when one is being recorded. */
  private void counted(CacheKey key, boolean hit, CacheLookupEvent event) {
    (hit ? hits : misses).increment();
    Events.cacheLookup(event, key, hit);
  }

  @Override
  public void put(CacheKey key, CacheValue value) {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(value, "value is null");
    if (value.weight() > maximumBytes) {
      entries.invalidate(key);
      return;
    }
    entries.put(key, value);
  }

  @Override
  public void invalidate(CacheKey key) {
    entries.invalidate(Objects.requireNonNull(key, "key is null"));
  }

  @Override
  public void invalidateAll() {
    entries.invalidateAll();
  }

  /**
   * The total weight of the values held now. Walks the entries (Guava does not expose its running
   * total), so it costs time linear in the entry count; it is meant for metrics, not hot paths.
   */
  @Override
  public long sizeInBytes() {
    long total = 0;
    for (CacheValue value : entries.asMap().values()) {
      total += value.weight();
    }
    return total;
  }

  /** The number of entries held now. */
  public long entryCount() {
    return entries.size();
  }

  @Override
  public void recordBypass() {
    bypasses.increment();
  }

  @Override
  public CacheStats stats() {
    return new CacheStats(
        hits.sum(),
        misses.sum(),
        loads.sum(),
        loadFailures.sum(),
        totalLoadNanos.sum(),
        bypasses.sum(),
        evictions.sum(),
        evictedBytes.sum());
  }

  private void onRemoval(RemovalNotification<CacheKey, CacheValue> removal) {
    if (removal.getCause() == RemovalCause.SIZE && removal.getValue() != null) {
      evictions.increment();
      evictedBytes.add(removal.getValue().weight());
    }
  }

  @Override
  public String toString() {
    return "MemoryCache[maximumBytes=" + maximumBytes + ", entries=" + entries.size() + "]";
  }

  /** Carries the failure of a load its own thread's interrupt cancelled out of Guava's loader. */
  private static final class CancelledLoad extends RuntimeException {
    final transient IOException cause;

    CancelledLoad(IOException cause) {
      super(null, null, false, false);
      this.cause = cause;
    }
  }

  /** Carries a value too heavy for the cache out of Guava's loader without caching it. */
  private static final class OversizedValue extends RuntimeException {
    final transient CacheValue value;

    OversizedValue(CacheValue value) {
      super(null, null, false, false);
      this.value = value;
    }
  }

  /** Builds a {@link MemoryCache}. */
  public static final class Builder {
    private long maximumBytes = -1;

    private Builder() {}

    /** The bound on the total bytes of cached values; required, must be positive. */
    public Builder maximumBytes(long maximumBytes) {
      if (maximumBytes <= 0) {
        throw new IllegalArgumentException("maximumBytes must be > 0: " + maximumBytes);
      }
      this.maximumBytes = maximumBytes;
      return this;
    }

    public MemoryCache build() {
      if (maximumBytes <= 0) {
        throw new IllegalStateException("maximumBytes is not set");
      }
      return new MemoryCache(maximumBytes);
    }
  }
}
