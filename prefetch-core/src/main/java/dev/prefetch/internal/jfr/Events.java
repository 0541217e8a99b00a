package dev.prefetch.internal.jfr;

import dev.prefetch.DataFile;
import dev.prefetch.cache.CacheKey;

/** Emits the events that need no scope; each method returns at once when its event is off. */
public final class Events {

  private Events() {}

  /** A producer waited {@code waitNanos} to queue a batch of {@code file}. */
  public static void producerBlocked(
      DataFile file, long firstRow, int rowCount, boolean budget, long waitNanos) {
    ProducerBlockedEvent event = new ProducerBlockedEvent();
    if (event.shouldCommit()) {
      event.file = file.toString();
      event.range = rows(firstRow, rowCount);
      event.reason = budget ? "budget" : "queue-full";
      event.waitNanos = waitNanos;
      event.commit();
    }
  }

  /** Whether {@link ConsumerWaitedEvent} is recorded (the consumer then keeps its waits). */
  public static boolean consumerWaitedEnabled() {
    return new ConsumerWaitedEvent().isEnabled();
  }

  /** The consumer waited {@code waitNanos} for a batch of {@code file}, or for the end (null). */
  public static void consumerWaited(DataFile file, long firstRow, int rowCount, long waitNanos) {
    ConsumerWaitedEvent event = new ConsumerWaitedEvent();
    if (event.shouldCommit()) {
      event.file = file == null ? null : file.toString();
      event.range = file == null ? "end" : rows(firstRow, rowCount);
      event.waitNanos = waitNanos;
      event.commit();
    }
  }

  /** A batch was released. */
  public static void batchReleased(
      DataFile file, long firstRow, int rowCount, long bytes, boolean recycled) {
    BatchReleasedEvent event = new BatchReleasedEvent();
    if (event.shouldCommit()) {
      event.file = file.toString();
      event.firstRow = firstRow;
      event.rowCount = rowCount;
      event.bytes = bytes;
      event.recycled = recycled;
      event.commit();
    }
  }

  /** A started cache lookup event, or null when it is not recorded. */
  public static CacheLookupEvent beginCacheLookup() {
    CacheLookupEvent event = new CacheLookupEvent();
    if (!event.isEnabled()) {
      return null;
    }
    event.begin();
    return event;
  }

  /** Ends and commits a lookup begun with {@link #beginCacheLookup} (null: not recorded). */
  public static void cacheLookup(CacheLookupEvent event, CacheKey key, boolean hit) {
    if (event == null) {
      return;
    }
    event.end();
    if (event.shouldCommit()) {
      event.file = key.file().uri().toString();
      event.kind = key.kind().name();
      event.position = key.position();
      event.length = key.length();
      event.hit = hit;
      event.commit();
    }
  }

  private static String rows(long firstRow, int rowCount) {
    return "rows " + firstRow + ".." + (firstRow + rowCount);
  }
}
