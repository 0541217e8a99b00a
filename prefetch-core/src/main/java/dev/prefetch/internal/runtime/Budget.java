package dev.prefetch.internal.runtime;

import dev.prefetch.spi.MemoryLedger;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read's byte budget ({@code prefetch.max-buffered-bytes}) and everything counted against it.
 *
 * <p>Three parts, one total:
 *
 * <ul>
 *   <li><b>queued</b>: the batches in the queues, hand-offs included;
 *   <li><b>held</b>: per producer, the reservation for the batch it is about to decode, replaced by
 *       that batch's real size once decoded, until the batch is queued;
 *   <li><b>formats</b>: what the range readers report through their {@link MemoryLedger}s (buffer
 *       pools, chunk and stripe bytes, reads in flight).
 * </ul>
 *
 * A producer may begin decoding a batch only when the total leaves room for it ({@link #fits}); the
 * one exception is the hand-off of the exchange (the batch the consumer waits for, whose queue is
 * empty), so the total exceeds the budget by at most the hand-offs, the formats' reports made
 * during one decode per producer, and the amount by which a decoded batch outgrew its reservation.
 *
 * <p>Threads: queued and held are plain fields that only the {@link Exchange} changes, while it
 * holds its lock. The formats' part is an atomic that readers change from their own threads without
 * the lock (a report happens inside a read, on the decode path) and that the exchange reads when it
 * decides. A decision may see a report a moment late; the next decision sees it.
 */
final class Budget {

  private final long maxBytes;
  private final int producers;
  private final ReaderStats stats;

  private long queuedBytes;

  private final long[] held;

  private long heldBytes;

  /** The sum of every open reader's ledger. */
  private final AtomicLong formatBytes = new AtomicLong();

  Budget(long maxBytes, int producers, ReaderStats stats) {
    this.maxBytes = maxBytes;
    this.producers = producers;
    this.stats = stats;
    this.held = new long[producers];
  }

  /** The largest batch decoded so far, by any producer. */
  private long largestBatch;

  /**
   * Whether a producer may begin a batch expected to take {@code bytes}. Before any batch is queued
   * nobody knows what one takes: then only into an empty budget, so that the first batches of all
   * producers do not start at once on a budget they may exceed together.
   */
  boolean fits(long bytes) {
    long total = total();
    return largestBatch == 0 ? total == 0 : total + bytes <= maxBytes;
  }

  /**
   * What a producer whose last batch took {@code lastBytes} reserves for its next one: at least one
   * byte, so that a reservation of unknown size still keeps the budget from looking empty.
   */
  long estimate(long lastBytes) {
    return Math.max(1, Math.max(lastBytes, largestBatch));
  }

  /** Everything counted now. */
  long total() {
    return queuedBytes + heldBytes + formatBytes.get();
  }

  /** Sets what {@code producer} holds outside the queues (a reservation or a decoded batch). */
  void hold(int producer, long bytes) {
    heldBytes += bytes - held[producer];
    held[producer] = bytes;
    recordPeak();
  }

  /** What {@code producer} holds outside the queues. */
  long held(int producer) {
    return held[producer];
  }

  /**
   * {@code producer}'s held batch of {@code bytes} enters its queue.
   *
   * @return whether it is the first batch queued: reservations of a known size can begin now
   */
  boolean enqueued(int producer, long bytes) {
    boolean first = largestBatch == 0;
    largestBatch = Math.max(largestBatch, bytes);
    hold(producer, 0);
    queuedBytes += bytes;
    recordPeak();
    return first;
  }

  /** A queued batch of {@code bytes} was taken by the consumer. */
  void taken(long bytes) {
    queuedBytes -= bytes;
  }

  /** The read is closed: the queues were dropped, and no producer holds a batch any more. */
  void clear() {
    queuedBytes = 0;
    heldBytes = 0;
    Arrays.fill(held, 0);
  }

  private void recordPeak() {
    long total = total();
    if (total > stats.peakBufferedBytes.get()) {
      stats.peakBufferedBytes.set(total);
    }
  }

  /** A ledger for one range reader, counted in this budget until {@link ReaderLedger#close}. */
  ReaderLedger newLedger() {
    return new ReaderLedger(formatBytes, Math.max(1, maxBytes / producers));
  }

  /** What the readers report now (for tests and metrics; no lock needed). */
  long formatBytes() {
    return formatBytes.get();
  }
}
