package dev.prefetch.cache;

import java.io.IOException;

/**
 * A cache of file metadata bytes (footers, tails, page indexes), shared by readers across threads
 * and files.
 *
 * <p>Contract for implementations:
 *
 * <ul>
 *   <li>{@link #get} is single-flight: when several threads miss the same key at once, the loader
 *       runs once and the others wait for and share its value. A loader that throws caches nothing;
 *       the loading thread and every waiter get the failure, except when the load was cancelled by
 *       the loading thread's interrupt: then only that thread fails and the waiters load again.
 *   <li>All methods are thread-safe.
 *   <li>Values are immutable; an implementation may evict any entry at any time.
 * </ul>
 */
public interface Cache {

  /** Loads the bytes of a key on a miss. */
  @FunctionalInterface
  interface Loader {
    CacheValue load(CacheKey key) throws IOException;
  }

  /** The cached value of {@code key}, loading it with {@code loader} (once) on a miss. */
  CacheValue get(CacheKey key, Loader loader) throws IOException;

  /** The cached value of {@code key}, or null; counts a hit or a miss. */
  CacheValue getIfPresent(CacheKey key);

  void put(CacheKey key, CacheValue value);

  void invalidate(CacheKey key);

  void invalidateAll();

  /** Bytes held now. */
  long sizeInBytes();

  /** Counts a read that could not use the cache (its file had no identity). */
  void recordBypass();

  CacheStats stats();
}
