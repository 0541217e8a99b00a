package dev.prefetch.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler of each iteration's memory ({@code -prof dev.prefetch.bench.HeapProfiler}), on
 * every thread of the benchmark's JVM, the readers' producers included:
 *
 * <ul>
 *   <li>{@value #AFTER_GC} (MiB, the trial's maximum): the largest heap occupancy right after a
 *       collection in the iteration, summed over the heap's pools, from the collectors'
 *       notifications: the most the iteration kept reachable at a collection.
 *   <li>{@value #NO_GC_END} (MiB, the trial's maximum), in place of the former for an iteration in
 *       which no collection ran: the heap's occupancy at the iteration's end. Nothing was freed in
 *       the iteration, so this bounds what it kept reachable from above, garbage included.
 *   <li>{@value #PEAK} (MiB, the trial's maximum): the sum of the heap pools' peak usage, reset
 *       before the iteration. Pools peak at different moments (eden before a collection, the old
 *       generation after), so this bounds the heap's peak occupancy from above; it includes the
 *       garbage that waits for the next collection, so it tells the collector's sizing as much as
 *       the benchmark's.
 *   <li>{@value #ALLOC} (B/op, mean) and, when the benchmark published its rows per operation
 *       ({@link #rowsPerOperation}), {@value #ALLOC_ROW} (B/row, mean): the bytes allocated on the
 *       heap by every thread during the iteration. They come from the JVM's total of allocated
 *       bytes ({@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes}, JDK 21 and
 *       17.0.9+), which keeps counting the bytes of threads that have ended: a producer started and
 *       finished within the scan is counted. On a JVM without it, from the collections: the heap's
 *       growth between one collection's end and the next one's start, and up to the iteration's end
 *       (exact to a heap region per collection, and short of what a concurrent cleanup frees
 *       between notified collections; G1 counts a humongous object as its whole regions).
 *   <li>{@value #GCS} (count, the trial's sum): the collections in the iterations.
 *   <li>{@value #RSS} (MiB, the trial's maximum), on Linux: the process's peak resident memory
 *       ({@code VmHWM}, reset before the iteration), which includes native memory the heap figures
 *       do not see (DuckDB's, direct buffers) and, with {@code -XX:+AlwaysPreTouch}, the whole
 *       committed heap.
 * </ul>
 *
 * <p>A benchmark publishes its rows per operation in its trial setup ({@link #rowsPerOperation});
 * the profiler reads it after each iteration, for that benchmark class only. JMH runs the trial
 * setup within the first iteration, so its work (the setup's checksum scan) falls into the first
 * warm-up's figures, which JMH does not keep; with no warm-up, into the first measured one's.
 */
public final class HeapProfiler implements InternalProfiler {

  static final String AFTER_GC = "heap.afterGc";
  static final String NO_GC_END = "heap.noGcEnd";
  static final String PEAK = "heap.peak";
  static final String ALLOC = "heap.alloc.norm";
  static final String ALLOC_ROW = "heap.alloc.row";
  static final String GCS = "heap.gcs";
  static final String RSS = "rss.peak";

  private static final double MIB = 1024.0 * 1024.0;
  private static final ConcurrentMap<String, Long> ROWS = new ConcurrentHashMap<>();
  private static final Method TOTAL_ALLOCATED = totalAllocatedMethod();

  private final List<MemoryPoolMXBean> heapPools = new ArrayList<>();
  private final Set<String> heapPoolNames = new LinkedHashSet<>();
  private final boolean exactAllocation;
  private GcWindow window;
  private long allocatedAtStart;
  private boolean rssReset;

  /** The profiler JMH creates for {@code -prof dev.prefetch.bench.HeapProfiler}. */
  public HeapProfiler() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        heapPools.add(pool);
        heapPoolNames.add(pool.getName());
      }
    }
    exactAllocation = totalAllocated() >= 0;
  }

  /**
   * Publishes the rows one operation of {@code benchmark} reads, for {@value #ALLOC_ROW}; a
   * benchmark calls this in its trial setup (which JMH runs after the first iteration's start and
   * before its end).
   */
  public static void rowsPerOperation(Class<?> benchmark, long rows) {
    ROWS.put(benchmark.getName(), rows);
  }

  @Override
  public String getDescription() {
    return "Heap after GC, peak heap, allocation per operation and per row, peak RSS";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    start();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    return finish(benchmarkClass(benchmarkParams.getBenchmark()), result.getMetadata().getAllOps());
  }

  /** Resets the peaks and starts counting: the beginning of an iteration. */
  void start() {
    for (MemoryPoolMXBean pool : heapPools) {
      pool.resetPeakUsage();
    }
    rssReset = ProcessMemory.resetPeak();
    window = GcWindow.open(heapPoolNames, heapUsed());
    allocatedAtStart = totalAllocated();
  }

  /**
   * The figures since {@link #start}: the end of an iteration of {@code ops} operations of the
   * benchmark class {@code benchmark}.
   */
  List<ScalarResult> finish(String benchmark, long ops) {
    if (window == null) {
      throw new IllegalStateException("finish without start");
    }
    long allocatedAtEnd = totalAllocated();
    long used = heapUsed();
    long peak = 0;
    for (MemoryPoolMXBean pool : heapPools) {
      peak += pool.getPeakUsage().getUsed();
    }
    long rss = rssReset ? ProcessMemory.peakBytes() : -1;
    GcWindow.Summary gcs;
    try {
      gcs = window.close(used);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } finally {
      window = null;
    }
    List<ScalarResult> out = new ArrayList<>();
    out.add(new ScalarResult(GCS, gcs.collections(), "count", AggregationPolicy.SUM));
    if (gcs.collections() > 0) {
      out.add(new ScalarResult(AFTER_GC, gcs.maxAfterGc() / MIB, "MiB", AggregationPolicy.MAX));
    } else {
      out.add(new ScalarResult(NO_GC_END, used / MIB, "MiB", AggregationPolicy.MAX));
    }
    out.add(new ScalarResult(PEAK, peak / MIB, "MiB", AggregationPolicy.MAX));
    long allocated =
        exactAllocation && allocatedAtStart >= 0 && allocatedAtEnd >= allocatedAtStart
            ? allocatedAtEnd - allocatedAtStart
            : gcs.allocatedBetween();
    if (ops > 0) {
      double perOp = (double) allocated / ops;
      out.add(new ScalarResult(ALLOC, perOp, "B/op", AggregationPolicy.AVG));
      Long rows = ROWS.get(benchmark);
      if (rows != null && rows > 0) {
        out.add(new ScalarResult(ALLOC_ROW, perOp / rows, "B/row", AggregationPolicy.AVG));
      }
    }
    if (rss >= 0) {
      out.add(new ScalarResult(RSS, rss / MIB, "MiB", AggregationPolicy.MAX));
    }
    return out;
  }

  /** {@code dev.prefetch.bench.ScanBenchmark} of {@code dev.prefetch.bench.ScanBenchmark.scan}. */
  private static String benchmarkClass(String benchmark) {
    int dot = benchmark.lastIndexOf('.');
    return dot < 0 ? benchmark : benchmark.substring(0, dot);
  }

  private long heapUsed() {
    long used = 0;
    for (MemoryPoolMXBean pool : heapPools) {
      used += pool.getUsage().getUsed();
    }
    return used;
  }

  private static Method totalAllocatedMethod() {
    try {
      return com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** The bytes every thread has allocated since the JVM started, or -1 when not counted. */
  private static long totalAllocated() {
    if (TOTAL_ALLOCATED == null
        || !(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean)) {
      return -1;
    }
    try {
      return (Long) TOTAL_ALLOCATED.invoke(bean);
    } catch (IllegalAccessException | InvocationTargetException e) {
      // Not supported by this JVM (the interface's default throws), or switched off.
      return -1;
    }
  }
}
