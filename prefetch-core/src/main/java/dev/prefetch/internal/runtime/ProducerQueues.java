package dev.prefetch.internal.runtime;

import dev.prefetch.batch.RecordBatch;
import java.util.ArrayDeque;

/**
 * The producers' queues: each holds its producer's batches and end markers in increasing task
 * order, at most {@code capacity} batches (end markers are not counted). Plain data: not
 * thread-safe, touched only by the {@link Exchange} while it holds its lock.
 */
final class ProducerQueues {

  /** A queue entry: a batch, or the end of task {@code seq} when {@code batch} is null. */
  record Entry(int seq, RecordBatch batch, long countedBytes) {}

  private final int capacity;

  private final ArrayDeque<Entry>[] queues;

  private final int[] batches;

  @SuppressWarnings("unchecked")
  ProducerQueues(int producers, int capacity) {
    this.capacity = capacity;
    this.queues = new ArrayDeque[producers];
    for (int i = 0; i < producers; i++) {
      queues[i] = new ArrayDeque<>();
    }
    this.batches = new int[producers];
  }

  int capacity() {
    return capacity;
  }

  /** Whether {@code producer}'s queue has room for one more batch. */
  boolean hasRoom(int producer) {
    return batches[producer] < capacity;
  }

  /** Free batch slots of {@code producer}'s queue. */
  int room(int producer) {
    return capacity - batches[producer];
  }

  /** Batches (not end markers) in {@code producer}'s queue. */
  int batches(int producer) {
    return batches[producer];
  }

  boolean isEmpty(int producer) {
    return queues[producer].isEmpty();
  }

  /** Appends an entry; a batch counts against the capacity. */
  void add(int producer, Entry entry) {
    queues[producer].addLast(entry);
    if (entry.batch() != null) {
      batches[producer]++;
    }
  }

  /** Removes and returns the head of {@code producer}'s queue, or null. */
  Entry poll(int producer) {
    Entry head = queues[producer].pollFirst();
    if (head != null && head.batch() != null) {
      batches[producer]--;
    }
    return head;
  }

  /** Drops every entry (close), so batches go now rather than when the reader is collected. */
  void clear() {
    for (int p = 0; p < queues.length; p++) {
      queues[p].clear();
      batches[p] = 0;
    }
  }
}
