package dev.prefetch.spark.tools;

import dev.prefetch.spark.PrefetchSparkOptions;
import dev.prefetch.testkit.gen.DataSets;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark benchmark: the aggregate over every column of the benchmarks' 4,000,000-row scan table
 * ({@code scan.parquet}, {@code scan.orc}; the same files as {@code bin/bench}, generated on first
 * use), with Spark's built-in vectorized Parquet reader and its ORC reader against {@code
 * format("prefetch")}, on local files and on the remote model, all in one local SparkSession
 * ({@code local[2]}) and one run.
 *
 * <p>Run (after {@code mvn -B -q package -DskipTests}):
 *
 * <pre>
 *   bin/spark-bench [REPEAT [REMOTE_REPEAT [MASTER]]]
 * </pre>
 *
 * REPEAT (default 5) timed local runs per contender after one warm-up run, REMOTE_REPEAT (default
 * 3) timed remote runs (no warm-up: the JVM is warm from the local runs, and one remote run of
 * Spark's readers takes about a minute), MASTER default {@code local[2]}.
 *
 * <pre>
 * </pre>
 *
 * The directory is {@code BENCH_DIR} (default {@code benchmarks/target/bench-data}), the rows
 * {@code BENCH_ROWS} (default 4,000,000). Each contender prints one JSON line (see {@link
 * SparkScan}); the run fails when the contenders' aggregates differ. The session has a producer
 * pool of 16 threads ({@code spark.prefetch.executor.threads}); on the remote model the prefetch
 * source runs twice, with its default producers per task and with 8 ({@code
 * spark.prefetch.parallelism}, the line's {@code settings}). After the local runs, a line with
 * {@code source} "memory" times the aggregate over each file's rows already held in Spark's
 * in-memory cache: about the floor below which no reader can bring this query.
 */
public final class SparkScanBenchmark {

  private SparkScanBenchmark() {}

  public static void main(String[] args) throws Exception {
    int repeat = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int remoteRepeat = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String master = args.length > 2 ? args[2] : "local[2]";
    Path dir =
        Path.of(System.getenv().getOrDefault("BENCH_DIR", "benchmarks/target/bench-data"))
            .toAbsolutePath();
    long rows =
        Long.parseLong(
            System.getenv().getOrDefault("BENCH_ROWS", String.valueOf(GenSpec.DEFAULT_ROWS)));
    Files.createDirectories(dir);
    Path parquet = dir.resolve("scan.parquet");
    Path orc = dir.resolve("scan.orc");
    DataSets.ensure(GenSpec.scan("parquet", rows), parquet);
    DataSets.ensure(GenSpec.scan("orc", rows), orc);
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("spark-scan-benchmark")
            .config("spark.ui.enabled", "false")
            // Producers blocked in storage requests hold their threads: on the remote model the
            // pool is what bounds concurrent requests, so it is sized for 2 tasks x 8 producers.
            .config(PrefetchSparkOptions.EXECUTOR_THREADS, "16")
            .getOrCreate();
    int status = 0;
    try {
      SimulatedFileSystem.configure(
          spark.sparkContext().hadoopConfiguration(),
          SparkScan.REMOTE_LATENCY_MS,
          SparkScan.REMOTE_BANDWIDTH_MBPS);
      // Local first, with a warm-up run per contender; the remote runs follow in the same JVM,
      // already warm, so they need none (a remote run of Spark's readers takes a minute).
      status =
          Math.max(status, SparkScan.compare(spark, List.of(parquet, orc), false, null, repeat, 1));
      // The floor: the aggregate alone, over rows already in Spark's in-memory cache.
      for (Path file : List.of(parquet, orc)) {
        SparkScan.inMemoryFloor(spark, file, repeat, 1);
      }
      status =
          Math.max(
              status,
              SparkScan.compare(
                  spark,
                  List.of(parquet, orc),
                  true,
                  null,
                  remoteRepeat,
                  0,
                  Map.of("spark.prefetch.parallelism", "8")));
    } finally {
      spark.stop();
    }
    System.exit(status);
  }
}
