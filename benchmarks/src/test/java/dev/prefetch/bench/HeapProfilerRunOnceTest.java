package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.bench.report.BenchResult;
import dev.prefetch.bench.report.ResultsFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * One tiny JMH trial each of our 2 producers and of DuckDB, in this JVM ({@code -f 0}), with {@link
 * HeapProfiler}: the results file carries the profiler's figures and the report prints them in its
 * memory table.
 */
@Timeout(300)
@ExtendWith(TinyBenchData.class)
class HeapProfilerRunOnceTest {

  @Test
  void oneTrialWithTheProfilerReportsHeapAfterGcPeakHeapAndBytesPerRow(@TempDir Path dir)
      throws Exception {
    Path json = dir.resolve("results.json");
    Options options =
        new OptionsBuilder()
            .include("dev\\.prefetch\\.bench\\.(ScanBenchmark|DuckDbBenchmark)\\.scan$")
            .param("format", "parquet")
            .param("storage", "local")
            .param("reader", "prefetch-2")
            .param("threads", "1")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .addProfiler(HeapProfiler.class)
            .shouldFailOnError(true)
            .result(json.toString())
            .resultFormat(ResultFormatType.JSON)
            .build();
    assertThat(new Runner(options).run()).hasSize(2);

    List<BenchResult> results = ResultsFile.read(json);
    assertThat(results)
        .extracting(BenchResult::benchmark)
        .contains("ScanBenchmark", "DuckDbBenchmark");
    for (BenchResult r : results) {
      assertThat(r.secondary(HeapProfiler.PEAK)).as(r.benchmark()).isPositive();
      double afterGc = r.secondary(HeapProfiler.AFTER_GC);
      double noGcEnd = r.secondary(HeapProfiler.NO_GC_END);
      // Exactly one of the two, by whether the scan saw a collection.
      assertThat(Double.isNaN(afterGc) != Double.isNaN(noGcEnd)).as(r.benchmark()).isTrue();
      assertThat(r.secondary(HeapProfiler.ALLOC_ROW)).as(r.benchmark()).isPositive();
    }
    BenchResult ours =
        results.stream().filter(r -> r.benchmark().equals("ScanBenchmark")).findFirst().get();
    // Our scan decodes every value of 30,000 rows into batches on the heap: some bytes per row.
    assertThat(ours.secondary(HeapProfiler.ALLOC_ROW)).isGreaterThan(8.0);

    String md = new Report(results, Map.of(), TinyBenchData.ROWS).markdown("machine\n", "cmd");
    assertThat(md)
        .contains("### Memory per trial", "| Parquet, local: ours, 2 producers | ")
        .contains("| Parquet, local: DuckDB (native), 1 thread | ", "DuckDB's memory is native");
  }
}
