package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.bench.report.BenchResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's memory table from results with and without the profiler's figures. */
class MemoryTableTest {

  private static BenchResult result(
      String benchmark, Map<String, String> params, Map<String, Double> secondary) {
    return new BenchResult(
        benchmark, params, List.of(0.5, 0.4, 0.6), 0.5, 0.1, 1, 1, 3, List.of(), "jvm", secondary);
  }

  @Test
  void everyProfiledTrialGetsARowAndAScanWithoutACollectionIsMarkedAsAnUpperBound() {
    BenchResult ours =
        result(
            "ScanBenchmark",
            Map.of("format", "parquet", "storage", "local", "reader", "prefetch-2"),
            Map.of(
                HeapProfiler.AFTER_GC, 41.25,
                HeapProfiler.PEAK, 612.0,
                HeapProfiler.ALLOC_ROW, 87.46,
                HeapProfiler.RSS, 3300.0,
                HeapProfiler.GCS, 12.0));
    BenchResult lineitem =
        result(
            "LineitemBenchmark",
            Map.of("table", "parquet-all", "reader", "native"),
            Map.of(HeapProfiler.NO_GC_END, 20.0, HeapProfiler.PEAK, 30.0, HeapProfiler.GCS, 0.0));
    BenchResult unprofiled =
        result("DuckDbBenchmark", Map.of("threads", "1"), Map.of("gc.count", 3.0));

    String md = MemoryTable.markdown(List.of(ours, lineitem, unprofiled));

    assertThat(md)
        .contains(
            "| Parquet, local: ours, 2 producers | 0.500 | 41.3 | 612.0 | 87.5 | 3300.0 | 12 |",
            "| lineitem Parquet (DuckDB's), all columns, local: DuckDB (native), 2 threads | 0.500"
                + " | ≤ 20.0 (no GC) | 30.0 | n/a | n/a | 0 |",
            "no collection ran in any measured scan")
        .doesNotContain("DuckDB (native), 1 thread");
  }

  @Test
  void resultsWithoutTheProfilerGiveNoTable() {
    BenchResult r =
        result("DuckDbBenchmark", Map.of("threads", "1"), Map.of("gc.alloc.rate.norm", 1.0));
    assertThat(MemoryTable.markdown(List.of(r))).isEmpty();
  }
}
