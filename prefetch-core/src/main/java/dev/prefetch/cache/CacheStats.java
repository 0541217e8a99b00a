package dev.prefetch.cache;

/**
 * A snapshot of a cache's counters.
 *
 * @param hits lookups answered from the cache (including waiters that shared a concurrent load)
 * @param misses lookups that found nothing and loaded (one per load, not per waiter)
 * @param loads loads that completed with a value
 * @param loadFailures loads that threw; nothing was cached
 * @param totalLoadNanos time spent in loaders
 * @param bypasses reads that could not use the cache because the file had no identity
 * @param evictions entries removed to respect the byte bound
 * @param evictedBytes bytes of those entries
 */
public record CacheStats(
    long hits,
    long misses,
    long loads,
    long loadFailures,
    long totalLoadNanos,
    long bypasses,
    long evictions,
    long evictedBytes) {

  public static final CacheStats EMPTY = new CacheStats(0, 0, 0, 0, 0, 0, 0, 0);

  /** The counters of two caches added up. */
  public CacheStats plus(CacheStats other) {
    return new CacheStats(
        hits + other.hits,
        misses + other.misses,
        loads + other.loads,
        loadFailures + other.loadFailures,
        totalLoadNanos + other.totalLoadNanos,
        bypasses + other.bypasses,
        evictions + other.evictions,
        evictedBytes + other.evictedBytes);
  }

  /** The counters accumulated since {@code earlier}. */
  public CacheStats minus(CacheStats earlier) {
    return new CacheStats(
        hits - earlier.hits,
        misses - earlier.misses,
        loads - earlier.loads,
        loadFailures - earlier.loadFailures,
        totalLoadNanos - earlier.totalLoadNanos,
        bypasses - earlier.bypasses,
        evictions - earlier.evictions,
        evictedBytes - earlier.evictedBytes);
  }
}
