package dev.prefetch.spi;

/**
 * Where a range reader reports the memory it holds besides its batches: buffer pools, column chunk
 * or stripe bytes read and not yet dropped, arrays allocated for a read in flight. The runtime
 * hands one ledger to each reader it opens (in its {@link ReaderContext}) and counts what all its
 * readers hold against the read's {@code prefetch.max-buffered-bytes}, together with the batches
 * queued and being decoded; a format reports without knowing how the budget is kept.
 *
 * <p>Reporting never waits: a reader reports inside a read or a decode, where it cannot give its
 * thread up. The runtime enforces the budget between batches instead: a producer begins decoding
 * its next batch only while everything counted leaves room for it.
 *
 * <p>Contract: report an allocation with {@link #acquire} as soon as the array exists (before
 * filling it), and {@link #release} the same number of bytes once nothing of the reader refers to
 * it any more (or once it is handed to a pool that reports it itself). The runtime releases what a
 * reader still holds when it closes that reader, so a count a reader forgets to release does not
 * outlive it, and a release after that is ignored. Thread-safe: a filesystem's vectored read may
 * allocate on its own threads, and a plan's shared buffers release on whichever thread drops them.
 */
public interface MemoryLedger {

  /** A ledger that counts nothing and allows every share (the single reader, tools). */
  MemoryLedger NONE =
      new MemoryLedger() {
        @Override
        public void acquire(long bytes) {}

        @Override
        public void release(long bytes) {}

        @Override
        public long shareBytes() {
          return Long.MAX_VALUE;
        }
      };

  /** Counts {@code bytes} (not negative) as held by this reader. */
  void acquire(long bytes);

  /** Counts {@code bytes} (not negative) as no longer held. */
  void release(long bytes);

  /**
   * The bytes this reader may keep between reads without crowding out the others: the budget
   * divided among the producers. A pool of free arrays keeps at most this much, so that what the
   * readers keep for reuse never fills the budget that queued batches need.
   */
  long shareBytes();
}
