package dev.prefetch.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The garbage collections of one window of time (a benchmark iteration), from the collectors' JMX
 * notifications: the heap's occupancy right after each, and the bytes allocated in the window as
 * the collections saw them.
 *
 * <p>Threads: {@link #open} and {@link #close} run on the thread that measures; the JVM's
 * notification thread calls {@link #handleNotification}, asynchronously and some time after each
 * collection. All mutable state is guarded by {@code this}. A notification belongs to the window
 * when its collection's id (the collector's count of collections) is above the count the collector
 * had when the window opened; {@link #close} waits, bounded, until every collection the collectors
 * count by then has been delivered, so that a collection just before the end is not missed.
 */
final class GcWindow implements NotificationListener {

  /** How long {@link #close} waits for notifications still in flight. */
  private static final long DELIVERY_WAIT_MS = 2000;

  /** One collection: its order, and the heap's occupancy before and after, in bytes. */
  private record Collection(long start, long end, long before, long after) {}

  private final Set<String> heapPools;
  private final long usedAtOpen;
  private final List<GarbageCollectorMXBean> collectors;

  /** Each collector's count when the window opened; immutable, so read without the lock. */
  private final Map<String, Long> countAtOpen;

  // Guarded by this.
  private final List<Collection> collections = new ArrayList<>();
  private final Map<String, Long> lastDelivered = new HashMap<>();

  private GcWindow(Set<String> heapPools, long usedAtOpen) {
    this.heapPools = Set.copyOf(heapPools);
    this.usedAtOpen = usedAtOpen;
    this.collectors = ManagementFactory.getGarbageCollectorMXBeans();
    Map<String, Long> counts = new HashMap<>();
    for (GarbageCollectorMXBean collector : collectors) {
      counts.put(collector.getName(), collector.getCollectionCount());
    }
    this.countAtOpen = Map.copyOf(counts);
  }

  /**
   * Starts listening to every collector.
   *
   * @param heapPools the names of the heap's memory pools (the occupancy sums over these)
   * @param usedAtOpen the heap's occupancy now, in bytes
   */
  static GcWindow open(Set<String> heapPools, long usedAtOpen) {
    GcWindow window = new GcWindow(heapPools, usedAtOpen);
    for (GarbageCollectorMXBean collector : window.collectors) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(window, null, null);
      }
    }
    return window;
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (!notification
        .getType()
        .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    GcInfo gc = info.getGcInfo();
    Long atOpen = countAtOpen.get(info.getGcName());
    if (atOpen == null || gc.getId() <= atOpen) {
      return;
    }
    Collection c =
        new Collection(
            gc.getStartTime(),
            gc.getEndTime(),
            heap(gc.getMemoryUsageBeforeGc()),
            heap(gc.getMemoryUsageAfterGc()));
    synchronized (this) {
      collections.add(c);
      lastDelivered.merge(info.getGcName(), gc.getId(), Math::max);
      notifyAll();
    }
  }

  private long heap(Map<String, MemoryUsage> pools) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : pools.entrySet()) {
      if (heapPools.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    return used;
  }

  /**
   * Stops listening, after waiting (up to two seconds) for the notifications of every collection
   * the collectors have counted so far.
   *
   * @param usedAtClose the heap's occupancy now, in bytes
   */
  Summary close(long usedAtClose) throws InterruptedException {
    Map<String, Long> countAtClose = new HashMap<>();
    for (GarbageCollectorMXBean collector : collectors) {
      countAtClose.put(collector.getName(), collector.getCollectionCount());
    }
    long deadline = System.nanoTime() + DELIVERY_WAIT_MS * 1_000_000;
    List<Collection> seen;
    synchronized (this) {
      while (!allDelivered(countAtClose)) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          break;
        }
        wait(left);
      }
      seen = new ArrayList<>(collections);
    }
    for (GarbageCollectorMXBean collector : collectors) {
      if (collector instanceof NotificationEmitter emitter) {
        try {
          emitter.removeNotificationListener(this);
        } catch (ListenerNotFoundException e) {
          // Not a notifying collector after all: nothing to remove.
        }
      }
    }
    seen.sort(Comparator.comparingLong(Collection::end).thenComparingLong(Collection::start));
    return summarize(seen, usedAtClose);
  }

  // Holds this.
  private boolean allDelivered(Map<String, Long> countAtClose) {
    for (Map.Entry<String, Long> e : countAtClose.entrySet()) {
      long atOpen = countAtOpen.getOrDefault(e.getKey(), 0L);
      if (e.getValue() > atOpen && lastDelivered.getOrDefault(e.getKey(), atOpen) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Allocation between collections: what the heap grew by from the previous collection's end (or
   * the window's opening) to the next collection's start, and to the window's close after the last
   * one. Memory freed outside a notified collection (G1's concurrent cleanup before JDK 20) is not
   * seen, so this can fall short; {@link HeapProfiler} uses it only when the JVM has no total
   * allocation counter.
   */
  private Summary summarize(List<Collection> seen, long usedAtClose) {
    long allocated = 0;
    long previous = usedAtOpen;
    long maxAfter = -1;
    for (Collection c : seen) {
      allocated += Math.max(0, c.before() - previous);
      previous = c.after();
      maxAfter = Math.max(maxAfter, c.after());
    }
    allocated += Math.max(0, usedAtClose - previous);
    return new Summary(seen.size(), maxAfter, allocated);
  }

  /**
   * What the window saw.
   *
   * @param collections the collections in the window
   * @param maxAfterGc the largest heap occupancy right after one of them, in bytes; -1 when none
   * @param allocatedBetween the bytes allocated in the window, as the collections saw them
   */
  record Summary(int collections, long maxAfterGc, long allocatedBetween) {}
}
