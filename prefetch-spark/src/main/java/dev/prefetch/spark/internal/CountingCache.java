package dev.prefetch.spark.internal;

import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheKind;
import dev.prefetch.cache.CacheStats;
import dev.prefetch.cache.CacheValue;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The shared cache as one reader sees it: every call goes to the shared cache, and the footer hits
 * and misses of this reader are counted here (the shared cache's own statistics add up all tasks).
 * A {@code get} is a miss when its loader ran for this call, a hit otherwise (also when it waited
 * for another task's load of the same key).
 */
final class CountingCache implements Cache {

  private final Cache shared;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  CountingCache(Cache shared) {
    this.shared = shared;
  }

  long footerHits() {
    return hits.sum();
  }

  long footerMisses() {
    return misses.sum();
  }

  @Override
  public CacheValue get(CacheKey key, Loader loader) throws IOException {
    AtomicBoolean loaded = new AtomicBoolean();
    CacheValue value =
        shared.get(
            key,
            k -> {
              loaded.set(true);
              return loader.load(k);
            });
    count(key, !loaded.get());
    return value;
  }

  @Override
  public CacheValue getIfPresent(CacheKey key) {
    CacheValue value = shared.getIfPresent(key);
    count(key, value != null);
    return value;
  }

  private void count(CacheKey key, boolean hit) {
    if (key.kind() == CacheKind.DATA_FILE_FOOTER) {
      (hit ? hits : misses).increment();
    }
  }

  @Override
  public void put(CacheKey key, CacheValue value) {
    shared.put(key, value);
  }

  @Override
  public void invalidate(CacheKey key) {
    shared.invalidate(key);
  }

  @Override
  public void invalidateAll() {
    shared.invalidateAll();
  }

  @Override
  public long sizeInBytes() {
    return shared.sizeInBytes();
  }

  @Override
  public void recordBypass() {
    shared.recordBypass();
  }

  @Override
  public CacheStats stats() {
    return shared.stats();
  }
}
