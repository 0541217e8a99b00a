package dev.prefetch.spark.tools;

import dev.prefetch.bench.BenchData;
import dev.prefetch.spark.PrefetchSparkOptions;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark benchmark over many small files: the aggregate over every column (as {@link
 * SparkScanBenchmark}'s) of the benchmarks' scan table laid out as small Parquet files ({@link
 * BenchData#smallFiles}: 200 files of one 20,000-row row group each for 4,000,000 rows, about 1.5
 * MB each), with Spark's built-in vectorized Parquet reader, with {@code format("prefetch")}
 * reading each task's files as one stream (the default) and with it reading them one by one
 * ({@value PrefetchSparkOptions#STREAM_FILES}=false, the line's {@code settings}), all in one local
 * SparkSession and one run. Spark packs the files into tasks itself: about 23 files a task with
 * {@code local[2]} and the default {@code spark.sql.files.maxPartitionBytes}.
 *
 * <p>Run (after {@code mvn -B -q package -DskipTests}):
 *
 * <pre>
 *   bin/spark-bench small-files [REPEAT [REMOTE_REPEAT [MASTER]]]
 * </pre>
 *
 * REPEAT (default 5) timed local runs per contender after one warm-up run, REMOTE_REPEAT (default
 * 1) timed runs on the remote model (20 ms to the first byte of a request, 64 MiB/s per stream; no
 * warm-up), MASTER default {@code local[2]}. The directory is {@code BENCH_DIR} (default {@code
 * benchmarks/target/bench-data}, shared with {@code bin/bench SmallFilesBenchmark}), the rows
 * {@code BENCH_ROWS} (default 4,000,000), the rows per file {@code BENCH_SMALL_FILE_ROWS} (default
 * 20,000). The files are generated on first use; Spark reads them from a directory of links to them
 * ({@code spark-small-N}), which holds the data files only. Each contender prints one JSON line
 * (see {@link SparkScan}); the run fails when the contenders' aggregates differ.
 */
public final class SparkSmallFilesBenchmark {

  private SparkSmallFilesBenchmark() {}

  public static void main(String[] args) throws Exception {
    int repeat = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int remoteRepeat = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    String master = args.length > 2 ? args[2] : "local[2]";
    Map<String, String> env = System.getenv();
    System.setProperty(
        BenchData.DIR_PROPERTY, env.getOrDefault("BENCH_DIR", "benchmarks/target/bench-data"));
    if (env.containsKey("BENCH_ROWS")) {
      System.setProperty(BenchData.ROWS_PROPERTY, env.get("BENCH_ROWS"));
    }
    if (env.containsKey("BENCH_SMALL_FILE_ROWS")) {
      System.setProperty(BenchData.SMALL_FILE_ROWS_PROPERTY, env.get("BENCH_SMALL_FILE_ROWS"));
    }
    List<Path> files = BenchData.smallFiles();
    Path table = linked(files);
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("spark-small-files-benchmark")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    int status = 0;
    Map<String, String> perFile = Map.of(PrefetchSparkOptions.STREAM_FILES, "false");
    try {
      SimulatedFileSystem.configure(
          spark.sparkContext().hadoopConfiguration(),
          SparkScan.REMOTE_LATENCY_MS,
          SparkScan.REMOTE_BANDWIDTH_MBPS);
      status =
          Math.max(
              status, SparkScan.compare(spark, List.of(table), false, null, repeat, 1, perFile));
      if (remoteRepeat > 0) {
        status =
            Math.max(
                status,
                SparkScan.compare(spark, List.of(table), true, null, remoteRepeat, 0, perFile));
      }
    } finally {
      spark.stop();
    }
    System.exit(status);
  }

  /**
   * A directory beside the files' own that holds links to them and nothing else (the generator's
   * directory also holds its stamp, which Spark would take for a data file). Made again when the
   * files were generated again (or where links cannot be made, copies are made each time).
   */
  private static Path linked(List<Path> files) throws IOException {
    Path source = files.get(0).getParent();
    Path table = source.resolveSibling("spark-" + source.getFileName());
    Path partial = source.resolveSibling(table.getFileName() + ".partial");
    if (Files.isDirectory(table) && sameFiles(table, files)) {
      return table;
    }
    deleteFlat(partial);
    Files.createDirectories(partial);
    for (Path file : files) {
      Path link = partial.resolve(file.getFileName());
      try {
        Files.createLink(link, file);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(file, link);
      }
    }
    deleteFlat(table);
    Files.move(partial, table);
    return table;
  }

  private static boolean sameFiles(Path table, List<Path> files) throws IOException {
    try (var listed = Files.list(table)) {
      if (listed.count() != files.size()) {
        return false;
      }
    }
    for (Path file : files) {
      Path link = table.resolve(file.getFileName());
      if (!Files.isRegularFile(link) || !Files.isSameFile(link, file)) {
        return false;
      }
    }
    return true;
  }

  private static void deleteFlat(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (var listed = Files.list(dir)) {
      for (Path file : listed.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(dir);
  }
}
