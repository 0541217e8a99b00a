package dev.prefetch.spi;

import dev.prefetch.ReadOptions;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link VectorArrayPool} per output column of a read, shared by every range reader the read
 * opens (the runtime hands it to each in its {@link ReaderContext}): the arrays of batches released
 * while one file's ranges were read serve the batches of the next file's, so that a stream of many
 * small files (a range reader each) does not start every file with empty pools and allocate all its
 * arrays anew.
 *
 * <p>Size: each pool keeps {@code arraysEach} arrays of each kind, which should be the most batches
 * of a column that can be queued at once (every producer's queue). Pools are made on first use and
 * live as long as the read.
 *
 * <p>Thread-safe: producers of a read take pools concurrently, and the pools are thread-safe.
 */
public final class ColumnArrayPools {

  private final int arraysEach;
  private final ConcurrentHashMap<Integer, VectorArrayPool> pools = new ConcurrentHashMap<>();

  /** Pools that each keep {@code arraysEach} arrays of each kind (at least the pool's minimum). */
  public ColumnArrayPools(int arraysEach) {
    this.arraysEach = arraysEach;
  }

  /**
   * Pools for a read with {@code options}: as many arrays of each kind as all its producers' queues
   * hold batches.
   */
  public static ColumnArrayPools forRead(ReadOptions options) {
    int producers = options.prefetchEnabled() ? options.parallelism() : 1;
    return new ColumnArrayPools(options.queueCapacity() * producers);
  }

  /**
   * Pools for one reader opened outside a read, which nothing else shares: each keeps the pool's
   * minimum of arrays of each kind.
   */
  public static ColumnArrayPools unshared() {
    return new ColumnArrayPools(0);
  }

  /** The pool of output column {@code column}: the same pool on every call for the same column. */
  public VectorArrayPool column(int column) {
    return pools.computeIfAbsent(column, c -> new VectorArrayPool(arraysEach));
  }
}
