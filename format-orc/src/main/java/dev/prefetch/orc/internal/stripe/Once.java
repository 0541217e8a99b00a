package dev.prefetch.orc.internal.stripe;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A value of a stripe that the first range reader to need it computes (reads and parses), while the
 * stripe's other readers wait for it instead of computing it again.
 *
 * <p>Threads: {@link #value} is written once, under {@link #lock}, and read without it (volatile: a
 * reader that sees it sees what its computation wrote). Waiting for the lock is interruptible, so a
 * producer waiting for another's read stops when the read is closed. A computation that fails
 * leaves no value: the next caller computes it again (and most likely fails the same way).
 *
 * @param <T> the value
 */
final class Once<T> {

  /** Computes the value; may read storage. */
  @FunctionalInterface
  interface Computation<T> {
    T compute() throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();
  private volatile T value;

  /** The value, computed by {@code computation} if nobody did yet; never null. */
  T get(Computation<T> computation) throws IOException {
    T known = value;
    if (known != null) {
      return known;
    }
    try {
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted while waiting for another reader's stripe read");
    }
    try {
      if (value == null) {
        T computed = computation.compute();
        if (computed == null) {
          throw new IllegalStateException("a stripe's value computed as null");
        }
        value = computed;
      }
      return value;
    } finally {
      lock.unlock();
    }
  }

  /** The value if it was computed, else null. */
  T peek() {
    return value;
  }
}
