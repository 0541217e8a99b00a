package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.ScalarResult;

/**
 * The profiler's figures around real allocations, collections and threads of this JVM: a thread
 * that allocates and ends within the window is counted, a collection's after-GC occupancy covers
 * what is still reachable, and without a collection the end occupancy stands in for it.
 */
@Timeout(120)
class HeapProfilerTest {

  private static final int MIB = 1 << 20;

  /** Kept reachable across the collection, so that the heap after it holds them. */
  private static volatile byte[][] retained;

  private static volatile Object sink;

  private static Map<String, Double> figures(List<ScalarResult> results) {
    Map<String, Double> out = new HashMap<>();
    for (ScalarResult r : results) {
      out.put(r.getLabel(), r.getScore());
    }
    return out;
  }

  /**
   * Allocates {@code mib} MiB of garbage on a thread that ends before this returns, in arrays of 64
   * KiB: small enough for G1 not to give each whole regions of its own.
   */
  private static void allocateOnAnotherThread(int mib) throws InterruptedException {
    Thread producer =
        new Thread(
            () -> {
              for (int i = 0; i < mib * 16; i++) {
                sink = new byte[MIB / 16];
              }
            },
            "heap-profiler-test-producer");
    producer.start();
    producer.join();
  }

  @Test
  void allocationOfAThreadThatEndedWithinTheIterationIsCountedPerOperationAndPerRow()
      throws Exception {
    HeapProfiler profiler = new HeapProfiler();
    HeapProfiler.rowsPerOperation(HeapProfilerTest.class, 1_000_000);
    profiler.start();
    allocateOnAnotherThread(200);
    Map<String, Double> f = figures(profiler.finish(HeapProfilerTest.class.getName(), 2));
    // 200 MiB over two operations, and over a million rows each.
    assertThat(f.get(HeapProfiler.ALLOC)).isBetween(100.0 * MIB, 110.0 * MIB);
    assertThat(f.get(HeapProfiler.ALLOC_ROW)).isBetween(100.0 * MIB / 1e6, 110.0 * MIB / 1e6);
    assertThat(f.get(HeapProfiler.PEAK)).isPositive();
  }

  @Test
  void theHeapAfterACollectionHoldsWhatIsStillReachableAndTheCollectionIsCounted()
      throws Exception {
    HeapProfiler profiler = new HeapProfiler();
    profiler.start();
    byte[][] kept = new byte[96][];
    for (int i = 0; i < kept.length; i++) {
      kept[i] = new byte[MIB];
    }
    retained = kept;
    System.gc();
    Map<String, Double> f = figures(profiler.finish("no.such.Benchmark", 1));
    retained = null;
    assertThat(f.get(HeapProfiler.GCS)).isGreaterThanOrEqualTo(1.0);
    assertThat(f.get(HeapProfiler.AFTER_GC)).isGreaterThanOrEqualTo(96.0);
    assertThat(f).doesNotContainKey(HeapProfiler.NO_GC_END);
    // The peak covers the retained arrays too; no rows were published for this class.
    assertThat(f.get(HeapProfiler.PEAK)).isGreaterThanOrEqualTo(96.0);
    assertThat(f).doesNotContainKey(HeapProfiler.ALLOC_ROW);
  }

  @Test
  void anIterationWithoutACollectionReportsTheOccupancyAtItsEndInstead() {
    HeapProfiler profiler = new HeapProfiler();
    // Short enough that no collection runs in between: a few small objects.
    profiler.start();
    sink = new byte[1024];
    Map<String, Double> f = figures(profiler.finish("no.such.Benchmark", 1));
    if (f.get(HeapProfiler.GCS) == 0) {
      assertThat(f).doesNotContainKey(HeapProfiler.AFTER_GC);
      assertThat(f.get(HeapProfiler.NO_GC_END)).isPositive();
    } else {
      // A collection another test's garbage triggered: then it is reported as one.
      assertThat(f).containsKey(HeapProfiler.AFTER_GC);
    }
  }

  @Test
  void theCollectionsEstimateOfAllocationAgreesWithTheJvmsTotalToAFewRegions() throws Exception {
    Set<String> pools = new LinkedHashSet<>();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pools.add(pool.getName());
        used += pool.getUsage().getUsed();
      }
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getTotalThreadAllocatedBytes();
    GcWindow window = GcWindow.open(pools, used);
    allocateOnAnotherThread(150);
    System.gc();
    allocateOnAnotherThread(50);
    long end = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        end += pool.getUsage().getUsed();
      }
    }
    long exact = threads.getTotalThreadAllocatedBytes() - before;
    GcWindow.Summary summary = window.close(end);
    assertThat(summary.collections()).isGreaterThanOrEqualTo(1);
    assertThat((double) summary.allocatedBetween()).isCloseTo(exact, within(16.0 * MIB));
  }
}
