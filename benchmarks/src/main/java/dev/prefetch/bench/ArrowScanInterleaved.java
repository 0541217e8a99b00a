package dev.prefetch.bench;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.testkit.scan.ProcessCpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * {@link ArrowScanBenchmark}'s two scans in turns in one JVM, for a machine whose load changes
 * faster than a JMH fork lasts: scan alone, then to Arrow, then the other way round, and so on, so
 * that both see the same load. The first half of the pairs warm up; the medians of wall and process
 * CPU time of the second half are printed, with their ratios. Both scans must read every row, and
 * the allocator must be empty at the end.
 *
 * <p>Run: {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch --add-opens=java.base/java.nio=ALL-UNNAMED
 * -cp benchmarks/target/benchmarks.jar dev.prefetch.bench.ArrowScanInterleaved [pairs]} (default 24
 * pairs), from the directory whose {@code target/bench-data} holds the scan table (see {@link
 * BenchData}).
 */
public final class ArrowScanInterleaved {

  private ArrowScanInterleaved() {}

  public static void main(String[] args) throws IOException {
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    org.apache.hadoop.fs.Path path = BenchData.path("local", BenchData.scanFile("parquet"));
    ReadOptions options = ReadOptions.builder().parallelism(2).build();
    List<Double> scanWall = new ArrayList<>();
    List<Double> scanCpu = new ArrayList<>();
    List<Double> arrowWall = new ArrayList<>();
    List<Double> arrowCpu = new ArrayList<>();
    long expectedRows = BenchData.rows();
    try (BufferAllocator allocator = new RootAllocator();
        ReadContext context = ReadContext.defaults()) {
      for (int pair = 0; pair < pairs; pair++) {
        for (int turn = 0; turn < 2; turn++) {
          boolean arrow = (pair + turn) % 2 == 0;
          long cpu = ProcessCpu.nanos();
          long start = System.nanoTime();
          long rows =
              arrow
                  ? ArrowScanBenchmark.arrowRows(path, options, context, allocator)
                  : ArrowScanBenchmark.scanRows(path, options, context);
          double seconds = (System.nanoTime() - start) / 1e9;
          double cpuSeconds = (ProcessCpu.nanos() - cpu) / 1e9;
          if (rows != expectedRows) {
            throw new IllegalStateException(
                (arrow ? "arrow" : "scan") + " read " + rows + " rows, expected " + expectedRows);
          }
          if (pair >= pairs / 2) {
            (arrow ? arrowWall : scanWall).add(seconds);
            (arrow ? arrowCpu : scanCpu).add(cpuSeconds);
          }
        }
      }
      if (allocator.getAllocatedMemory() != 0) {
        throw new IllegalStateException(
            allocator.getAllocatedMemory() + " bytes of Arrow memory not released");
      }
    }
    double sw = median(scanWall);
    double aw = median(arrowWall);
    double sc = median(scanCpu);
    double ac = median(arrowCpu);
    System.out.printf(
        Locale.ROOT,
        "%d measured pairs: scan %.3f s (CPU %.3f s), arrow %.3f s "
            + "(CPU %.3f s); arrow / scan: wall %.3f, CPU %.3f%n",
        scanWall.size(),
        sw,
        sc,
        aw,
        ac,
        aw / sw,
        ac / sc);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
