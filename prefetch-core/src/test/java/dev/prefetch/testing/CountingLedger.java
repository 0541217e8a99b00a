package dev.prefetch.testing;

import dev.prefetch.spi.MemoryLedger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memory ledger that keeps the bytes held (acquired less released) for a test to check, with a
 * fixed share. Safe to use from several threads.
 */
public final class CountingLedger implements MemoryLedger {
  private final AtomicLong held = new AtomicLong();
  private final long share;

  /** A ledger whose share is {@code share} bytes. */
  public CountingLedger(long share) {
    this.share = share;
  }

  /** A ledger whose share is unlimited. */
  public CountingLedger() {
    this(Long.MAX_VALUE);
  }

  /** The bytes acquired and not yet released. */
  public long held() {
    return held.get();
  }

  @Override
  public void acquire(long bytes) {
    held.addAndGet(bytes);
  }

  @Override
  public void release(long bytes) {
    held.addAndGet(-bytes);
  }

  @Override
  public long shareBytes() {
    return share;
  }
}
