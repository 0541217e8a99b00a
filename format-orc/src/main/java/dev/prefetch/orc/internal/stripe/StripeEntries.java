package dev.prefetch.orc.internal.stripe;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * What the producers of one plan share per stripe (its buffers, its kept reads), made by the first
 * producer that needs it and released once the plan's last range of the stripe is read.
 *
 * <p>Every producer calls in concurrently: the entries and their counts of ranges left are guarded
 * by this object, held only to look up, create or drop an entry; an entry is released outside the
 * lock, and its own state is its own monitor's.
 *
 * @param <E> the per-stripe state
 */
public final class StripeEntries<E extends StripeEntries.Held> {

  /** Per-stripe state that holds memory until released. */
  public interface Held {
    void release();
  }

  /** The plan's ranges of each stripe, 0 for a stripe whose state is not shared. */
  private final int[] rangesPerStripe;

  @GuardedBy("this")
  private final Object[] entries;

  @GuardedBy("this")
  private final int[] rangesLeft;

  public StripeEntries(int[] rangesPerStripe) {
    this.rangesPerStripe = rangesPerStripe.clone();
    this.entries = new Object[rangesPerStripe.length];
    this.rangesLeft = new int[rangesPerStripe.length];
  }

  /** Whether {@code stripe}'s state is shared (the plan has ranges of it that share). */
  public boolean shares(int stripe) {
    return rangesPerStripe[stripe] > 0;
  }

  /**
   * {@code stripe}'s state, made by {@code create} if no producer made it yet.
   *
   * @throws IllegalStateException for a stripe that does not share, with {@code notShared}
   */
  @SuppressWarnings("unchecked") // entries holds only what create made
  public synchronized E get(int stripe, Supplier<E> create, String notShared) {
    if (!shares(stripe)) {
      throw new IllegalStateException("stripe " + stripe + " " + notShared);
    }
    Object entry = entries[stripe];
    if (entry == null) {
      entry = create.get();
      entries[stripe] = entry;
      rangesLeft[stripe] = rangesPerStripe[stripe];
    }
    return (E) entry;
  }

  /** Notes that one of the plan's ranges of {@code stripe} is read; the last one releases it. */
  public void rangeDone(int stripe) {
    Held dropped = null;
    synchronized (this) {
      if (entries[stripe] != null && --rangesLeft[stripe] == 0) {
        dropped = (Held) entries[stripe];
        entries[stripe] = null;
      }
    }
    if (dropped != null) {
      dropped.release();
    }
  }

  /** Releases every stripe's state. */
  public void clear() {
    Object[] dropped;
    synchronized (this) {
      dropped = entries.clone();
      Arrays.fill(entries, null);
    }
    for (Object entry : dropped) {
      if (entry != null) {
        ((Held) entry).release();
      }
    }
  }
}
