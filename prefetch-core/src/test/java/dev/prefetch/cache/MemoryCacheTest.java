package dev.prefetch.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MemoryCacheTest {

  private static final int THREADS = 16;

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  private static CacheKey key(String name) {
    return CacheKey.footer(new FileIdentity(URI.create("file:///data/" + name), 100, 1));
  }

  private static CacheValue bytes(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) i;
    }
    return CacheValue.copyOf(b);
  }

  private static MemoryCache cache(long maximumBytes) {
    return MemoryCache.builder().maximumBytes(maximumBytes).build();
  }

  /**
   * Starts {@link #THREADS} threads that all call {@code get(key, loader)} at once. The loader (run
   * by whichever thread wins) first waits until every other thread is parked waiting for it, so the
   * others are real waiters and not late hits.
   */
  private List<Future<CacheValue>> getFromAllThreads(
      MemoryCache cache, CacheKey key, Cache.Loader body, AtomicInteger loaderRuns) {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> callers = new ArrayList<>();
    Cache.Loader loader =
        k -> {
          loaderRuns.incrementAndGet();
          awaitOthersWaiting(callers);
          return body.load(k);
        };
    List<Future<CacheValue>> results = new ArrayList<>();
    CountDownLatch registered = new CountDownLatch(THREADS);
    for (int i = 0; i < THREADS; i++) {
      results.add(
          pool.submit(
              () -> {
                synchronized (callers) {
                  callers.add(Thread.currentThread());
                }
                registered.countDown();
                start.await();
                return cache.get(key, loader);
              }));
    }
    try {
      assertThat(registered.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    start.countDown();
    return results;
  }

  /**
   * Polls until every caller but the current thread is parked on a future inside {@link
   * MemoryCache#get}. The loader holds the key's loading placeholder meanwhile, so a thread parked
   * there can only be waiting for this load. Each poll takes a stack trace (a handshake with that
   * thread), so the loader pauses briefly between polls instead of spinning: on a loaded two-core
   * machine a spinning loader kept the callers it waits for from running.
   */
  private static void awaitOthersWaiting(List<Thread> callers) {
    List<Thread> others;
    synchronized (callers) {
      others = new ArrayList<>(callers);
    }
    others.remove(Thread.currentThread());
    for (Thread other : others) {
      while (!parkedInCacheGet(other)) {
        if (Thread.currentThread().isInterrupted()) {
          // The test timed out (a caller never arrived); let the pool shut down.
          throw new AssertionError("interrupted while waiting for " + other.getName());
        }
        LockSupport.parkNanos(200_000);
      }
    }
  }

  private static boolean parkedInCacheGet(Thread thread) {
    // Parked on a future, not on a lock: a caller parked on the cache's segment lock is not yet
    // waiting for this load, and would start a load of its own once this one has failed.
    if (thread.getState() != Thread.State.WAITING
        || !(LockSupport.getBlocker(thread) instanceof Future<?>)) {
      return false;
    }
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getClassName().equals(MemoryCache.class.getName())
          && frame.getMethodName().equals("get")) {
        return true;
      }
    }
    return false;
  }

  @Test
  @Timeout(30)
  void sixteenThreadsMissingOneKeyLoadItOnceAndShareTheValue() throws Exception {
    MemoryCache cache = cache(1 << 20);
    AtomicInteger loaderRuns = new AtomicInteger();
    CacheValue loaded = bytes(64);

    List<Future<CacheValue>> results = getFromAllThreads(cache, key("a"), k -> loaded, loaderRuns);

    for (Future<CacheValue> result : results) {
      assertThat(result.get()).isSameAs(loaded);
    }
    assertThat(loaderRuns).hasValue(1);
    CacheStats stats = cache.stats();
    assertThat(stats.loads()).isEqualTo(1);
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.hits()).isEqualTo(THREADS - 1);
    assertThat(stats.loadFailures()).isZero();
    assertThat(cache.getIfPresent(key("a"))).isSameAs(loaded);
  }

  @Test
  @Timeout(30)
  void loaderFailureReachesEveryWaiterWithItsTypeAndIsNotCached() throws Exception {
    MemoryCache cache = cache(1 << 20);
    AtomicInteger loaderRuns = new AtomicInteger();

    List<Future<CacheValue>> results =
        getFromAllThreads(
            cache,
            key("broken"),
            k -> {
              throw new FileNotFoundException("broken.parquet is gone");
            },
            loaderRuns);

    for (Future<CacheValue> result : results) {
      assertThatThrownBy(result::get)
          .cause()
          .isExactlyInstanceOf(FileNotFoundException.class)
          .hasMessage("broken.parquet is gone");
    }
    assertThat(loaderRuns).hasValue(1);
    CacheStats stats = cache.stats();
    assertThat(stats.loadFailures()).isEqualTo(1);
    assertThat(stats.loads()).isZero();
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.hits()).isZero();
    assertThat(cache.sizeInBytes()).isZero();

    CacheValue value = cache.get(key("broken"), k -> bytes(8));
    assertThat(value).isEqualTo(bytes(8));
    assertThat(cache.stats().loads()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  void aLoaderCancelledByItsThreadsInterruptDoesNotFailTheOthersWaitingForTheKey()
      throws Exception {
    MemoryCache cache = cache(1 << 20);
    CacheKey key = key("cancelled");
    CountDownLatch loading = new CountDownLatch(1);
    // The first reader's load: blocked in I/O until its reader is cancelled by an interrupt.
    Future<CacheValue> cancelled =
        pool.submit(
            () ->
                cache.get(
                    key,
                    k -> {
                      loading.countDown();
                      try {
                        new CountDownLatch(1).await();
                        throw new AssertionError("unreachable");
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("the reader was cancelled");
                      }
                    }));
    assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();
    List<Thread> waiting = new ArrayList<>();
    CountDownLatch registered = new CountDownLatch(1);
    Future<CacheValue> other =
        pool.submit(
            () -> {
              synchronized (waiting) {
                waiting.add(Thread.currentThread());
              }
              registered.countDown();
              return cache.get(key, k -> bytes(7));
            });
    assertThat(registered.await(10, TimeUnit.SECONDS)).isTrue();
    Thread otherThread;
    synchronized (waiting) {
      otherThread = waiting.get(0);
    }
    while (!parkedInCacheGet(otherThread)) {
      Thread.onSpinWait();
    }
    cancelled.cancel(true); // interrupts the loading thread

    assertThat(other.get(10, TimeUnit.SECONDS).length()).isEqualTo(7);
    assertThat(cache.getIfPresent(key)).isNotNull();
  }

  @Test
  @Timeout(30)
  void loadsOfDifferentKeysRunAtTheSameTime() throws Exception {
    MemoryCache cache = cache(1 << 20);
    CountDownLatch bothLoading = new CountDownLatch(2);
    Cache.Loader meetTheOtherLoader =
        k -> {
          bothLoading.countDown();
          try {
            // Returns only once the other key's loader has started too.
            if (!bothLoading.await(20, TimeUnit.SECONDS)) {
              throw new IOException("loads of different keys were serialised");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException();
          }
          return bytes(16);
        };

    Future<CacheValue> a = pool.submit(() -> cache.get(key("a"), meetTheOtherLoader));
    Future<CacheValue> b = pool.submit(() -> cache.get(key("b"), meetTheOtherLoader));

    assertThat(a.get()).isEqualTo(bytes(16));
    assertThat(b.get()).isEqualTo(bytes(16));
    assertThat(cache.stats().loads()).isEqualTo(2);
    assertThat(cache.sizeInBytes()).isEqualTo(32);
  }

  @Test
  void runtimeExceptionAndErrorFromLoaderComeOutUnwrapped() {
    MemoryCache cache = cache(1 << 20);

    assertThatThrownBy(
            () ->
                cache.get(
                    key("a"),
                    k -> {
                      throw new IllegalStateException("bad footer length");
                    }))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage("bad footer length");
    assertThatThrownBy(
            () ->
                cache.get(
                    key("a"),
                    k -> {
                      throw new StackOverflowError("deep");
                    }))
        .isExactlyInstanceOf(StackOverflowError.class)
        .hasMessage("deep");

    assertThat(cache.stats().loadFailures()).isEqualTo(2);
    assertThat(cache.getIfPresent(key("a"))).isNull();
  }

  @Test
  void loaderReturningNullFailsAndCachesNothing() {
    MemoryCache cache = cache(1 << 20);

    assertThatThrownBy(() -> cache.get(key("a"), k -> null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("loader returned null");
    assertThat(cache.stats().loadFailures()).isEqualTo(1);
    assertThat(cache.sizeInBytes()).isZero();
  }

  @Test
  void hitsMissesLoadsAndLoadTimeAreCountedAsDocumented() throws IOException {
    MemoryCache cache = cache(1 << 20);
    long[] insideLoader = new long[1];
    Cache.Loader slowLoader =
        k -> {
          long start = System.nanoTime();
          // Let the clock move so that the load time cannot round to zero.
          while (System.nanoTime() == start) {
            Thread.onSpinWait();
          }
          insideLoader[0] = System.nanoTime() - start;
          return bytes(10);
        };

    cache.get(key("a"), slowLoader);
    AtomicInteger secondLoaderRuns = new AtomicInteger();
    CacheValue again =
        cache.get(
            key("a"),
            k -> {
              secondLoaderRuns.incrementAndGet();
              return bytes(99);
            });
    assertThat(cache.getIfPresent(key("a"))).isEqualTo(bytes(10));
    assertThat(cache.getIfPresent(key("missing"))).isNull();

    assertThat(again).isEqualTo(bytes(10));
    assertThat(secondLoaderRuns).hasValue(0);
    CacheStats stats = cache.stats();
    assertThat(stats.misses()).isEqualTo(2); // the first get and the getIfPresent of "missing"
    assertThat(stats.hits()).isEqualTo(2); // the second get and the first getIfPresent
    assertThat(stats.loads()).isEqualTo(1);
    assertThat(stats.totalLoadNanos()).isGreaterThanOrEqualTo(insideLoader[0]).isPositive();
    assertThat(stats.evictions()).isZero();
    assertThat(stats.bypasses()).isZero();
  }

  @Test
  void bypassIsCounted() {
    MemoryCache cache = cache(100);

    cache.recordBypass();
    cache.recordBypass();

    assertThat(cache.stats().bypasses()).isEqualTo(2);
    assertThat(cache.stats().hits() + cache.stats().misses()).isZero();
  }

  @Test
  void evictionHappensByBytesAndIsCountedWithItsBytes() throws IOException {
    MemoryCache cache = cache(100);
    cache.put(key("a"), bytes(30));
    cache.put(key("b"), bytes(30));
    cache.get(key("c"), k -> bytes(30));
    assertThat(cache.sizeInBytes()).isEqualTo(90);
    assertThat(cache.stats().evictions()).isZero();
    cache.getIfPresent(key("a")); // "b" is now the least recently used

    cache.put(key("d"), bytes(25));

    assertThat(cache.sizeInBytes()).isEqualTo(85).isLessThanOrEqualTo(cache.maximumBytes());
    assertThat(cache.getIfPresent(key("b"))).isNull();
    assertThat(cache.getIfPresent(key("a"))).isNotNull();
    CacheStats stats = cache.stats();
    assertThat(stats.evictions()).isEqualTo(1);
    assertThat(stats.evictedBytes()).isEqualTo(30);
  }

  @Test
  void manyPutsNeverHoldMoreThanTheBound() {
    MemoryCache cache = cache(1000);

    for (int i = 0; i < 200; i++) {
      cache.put(key("f" + i), bytes(1 + i % 50));
      assertThat(cache.sizeInBytes()).isLessThanOrEqualTo(1000);
    }

    CacheStats stats = cache.stats();
    long putBytes = 0;
    for (int i = 0; i < 200; i++) {
      putBytes += 1 + i % 50;
    }
    assertThat(stats.evictedBytes() + cache.sizeInBytes()).isEqualTo(putBytes);
    assertThat(stats.evictions() + cache.entryCount()).isEqualTo(200);
  }

  @Test
  void invalidateAndInvalidateAllRemoveEntriesWithoutCountingEvictions() throws IOException {
    MemoryCache cache = cache(1000);
    cache.put(key("a"), bytes(10));
    cache.put(key("b"), bytes(20));
    cache.put(key("c"), bytes(30));

    cache.invalidate(key("a"));
    assertThat(cache.getIfPresent(key("a"))).isNull();
    assertThat(cache.sizeInBytes()).isEqualTo(50);

    cache.invalidateAll();
    assertThat(cache.sizeInBytes()).isZero();
    assertThat(cache.entryCount()).isZero();
    assertThat(cache.stats().evictions()).isZero();

    AtomicInteger loaderRuns = new AtomicInteger();
    cache.get(
        key("b"),
        k -> {
          loaderRuns.incrementAndGet();
          return bytes(20);
        });
    assertThat(loaderRuns).hasValue(1);
  }

  @Test
  void putReplacesTheValueWithoutCountingAnEviction() {
    MemoryCache cache = cache(1000);
    cache.put(key("a"), bytes(10));

    cache.put(key("a"), bytes(40));

    assertThat(cache.getIfPresent(key("a"))).isEqualTo(bytes(40));
    assertThat(cache.sizeInBytes()).isEqualTo(40);
    assertThat(cache.stats().evictions()).isZero();
  }

  @Test
  void valueHeavierThanTheWholeBoundIsReturnedButNotCached() throws IOException {
    MemoryCache cache = cache(10);
    cache.put(key("small"), bytes(4));

    CacheValue big = cache.get(key("big"), k -> bytes(11));
    CacheValue bigAgain = cache.get(key("big"), k -> bytes(11));

    assertThat(big).isEqualTo(bytes(11));
    assertThat(bigAgain).isEqualTo(bytes(11));
    assertThat(cache.getIfPresent(key("big"))).isNull();
    assertThat(cache.getIfPresent(key("small"))).isNotNull();
    assertThat(cache.sizeInBytes()).isEqualTo(4);
    CacheStats stats = cache.stats();
    assertThat(stats.loads()).isEqualTo(2);
    assertThat(stats.evictions()).isZero();

    cache.put(key("small"), bytes(11));
    assertThat(cache.getIfPresent(key("small"))).isNull();
    assertThat(cache.sizeInBytes()).isZero();
  }

  @Test
  void valueExactlyAsHeavyAsTheBoundIsCached() throws IOException {
    MemoryCache cache = cache(10);

    cache.get(key("a"), k -> bytes(10));

    assertThat(cache.getIfPresent(key("a"))).isNotNull();
    assertThat(cache.sizeInBytes()).isEqualTo(10);
  }

  @Test
  void builderRejectsABoundThatIsNotPositive() {
    assertThatThrownBy(() -> MemoryCache.builder().maximumBytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0");
    assertThatThrownBy(() -> MemoryCache.builder().maximumBytes(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5");
    assertThatThrownBy(() -> MemoryCache.builder().build())
        .isInstanceOf(IllegalStateException.class);
  }
}
