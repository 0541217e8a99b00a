package dev.prefetch.internal.runtime;

import dev.prefetch.spi.MemoryLedger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One range reader's {@link MemoryLedger}: its reports add to the budget's formats part, and {@link
 * #close()} (when the runtime closes the reader) takes back whatever it still counts.
 *
 * <p>Thread-safe without a lock: {@code held} changes by compare-and-set so that a release never
 * takes the count below zero (a report released twice, or after close, takes back only what is
 * left), and the budget's sum changes by exactly what {@code held} did.
 */
final class ReaderLedger implements MemoryLedger {

  private final AtomicLong total;
  private final long shareBytes;
  private final AtomicLong held = new AtomicLong();
  private volatile boolean closed;

  ReaderLedger(AtomicLong total, long shareBytes) {
    this.total = total;
    this.shareBytes = shareBytes;
  }

  @Override
  public void acquire(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative bytes: " + bytes);
    }
    if (bytes == 0 || closed) {
      return;
    }
    held.addAndGet(bytes);
    total.addAndGet(bytes);
    if (closed) {
      release(bytes); // raced with close, which may not have seen this report
    }
  }

  @Override
  public void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative bytes: " + bytes);
    }
    while (bytes > 0) {
      long current = held.get();
      long taken = Math.min(current, bytes);
      if (taken == 0) {
        return;
      }
      if (held.compareAndSet(current, current - taken)) {
        total.addAndGet(-taken);
        return;
      }
    }
  }

  @Override
  public long shareBytes() {
    return shareBytes;
  }

  /** What this reader counts now. */
  long held() {
    return held.get();
  }

  /** The reader is closed: nothing it reported counts any more, nor does any later report. */
  void close() {
    closed = true;
    release(Long.MAX_VALUE);
  }
}
