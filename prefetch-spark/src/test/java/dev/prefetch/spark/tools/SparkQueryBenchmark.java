package dev.prefetch.spark.tools;

import dev.prefetch.bench.BenchData;
import dev.prefetch.bench.LineitemData;
import dev.prefetch.spark.PrefetchSparkOptions;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * TPC-H-style queries over the benchmarks' lineitem-shaped table ({@link LineitemData}: DuckDB's
 * Parquet, orc-core's ORC, the same rows), with Spark's built-in readers and with {@code
 * format("prefetch")} in one local SparkSession: Q1, Q6, a point lookup and a range on the sorted
 * key {@code l_orderkey}, a string equality, IN filters, and a projection of four columns. Before
 * any timing, each query's rows from both readers are compared (the run fails when they differ).
 *
 * <p>Run (after {@code mvn -B -q package -DskipTests}):
 *
 * <pre>
 *   bin/spark-bench queries [REPEAT [REMOTE_REPEAT [MASTER]]]
 * </pre>
 *
 * REPEAT (default 5) timed local runs per query and reader after one warm-up run, REMOTE_REPEAT
 * (default 3, 0 for none) timed runs on the remote model ({@link SparkScan#REMOTE_LATENCY_MS} ms to
 * the first byte, {@link SparkScan#REMOTE_BANDWIDTH_MBPS} MiB/s per stream, the simulated object
 * store), MASTER default {@code local[2]}. The table has {@code BENCH_LINEITEM_ROWS} rows (default
 * 6,000,000) in {@code BENCH_DIR} (default {@code benchmarks/target/bench-data}), written on first
 * use. The producer pool has 16 threads, as in {@link SparkScanBenchmark}.
 *
 * <p>Prints a table: per query, format and storage, the median seconds of the built-in reader and
 * of prefetch, their ratio (built-in over prefetch: above 1, prefetch is faster) and, locally, the
 * floor: the same query over the table's rows already in Spark's in-memory cache ({@code
 * df.cache()}, then a count), the query's own cost with no reading; then the geometric mean of the
 * ratios per format and storage.
 */
public final class SparkQueryBenchmark {

  /** A query over the view {@code lineitem}. */
  record Query(String name, String sql) {}

  private SparkQueryBenchmark() {}

  /** The queries, for a table of {@code rows} rows (the keys are {@code row / 4 + 1}). */
  static List<Query> queries(long rows) {
    long keys = Math.max(1, rows / 4);
    long point = keys / 2 + 1;
    long from = keys * 3 / 10 + 1;
    long to = from + Math.max(1, keys / 100);
    return List.of(
        new Query(
            "q1",
            "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
                + " sum(l_extendedprice) AS sum_base_price,"
                + " sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
                + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
                + " avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,"
                + " avg(l_discount) AS avg_disc, count(*) AS count_order FROM lineitem"
                + " WHERE l_shipdate <= date '1998-12-01' - INTERVAL 90 DAYS"
                + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus"),
        new Query(
            "q6",
            "SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem"
                + " WHERE l_shipdate >= date '1994-01-01' AND l_shipdate < date '1995-01-01'"
                + " AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"),
        new Query(
            "point",
            "SELECT * FROM lineitem WHERE l_orderkey = " + point + " ORDER BY l_linenumber"),
        new Query(
            "key-range",
            "SELECT count(*), sum(l_extendedprice), max(l_comment) FROM lineitem"
                + " WHERE l_orderkey BETWEEN "
                + from
                + " AND "
                + to),
        new Query(
            "string-eq", "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_shipmode = 'AIR'"),
        new Query(
            "in-lists",
            "SELECT l_shipinstruct, count(*), sum(l_extendedprice) FROM lineitem"
                + " WHERE l_shipmode IN ('MAIL', 'SHIP') AND l_returnflag IN ('R', 'A')"
                + " GROUP BY l_shipinstruct ORDER BY l_shipinstruct"),
        new Query(
            "projection",
            "SELECT count(*), sum(hash(l_orderkey, l_partkey, l_shipdate, l_shipmode))"
                + " FROM lineitem"));
  }

  /** One line of the table. */
  record Line(
      String query, String format, String storage, double builtIn, double prefetch, double floor) {
    double ratio() {
      return builtIn / prefetch;
    }
  }

  public static void main(String[] args) throws Exception {
    int repeat = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int remoteRepeat = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String master = args.length > 2 ? args[2] : "local[2]";
    System.setProperty(
        BenchData.DIR_PROPERTY,
        Path.of(System.getenv().getOrDefault("BENCH_DIR", "benchmarks/target/bench-data"))
            .toAbsolutePath()
            .toString());
    String rows = System.getenv("BENCH_LINEITEM_ROWS");
    if (rows != null) {
      System.setProperty(LineitemData.ROWS_PROPERTY, rows);
    }
    Map<String, Path> files = new LinkedHashMap<>();
    files.put("parquet", LineitemData.parquetFile());
    files.put("orc", LineitemData.orcFile());
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("spark-query-benchmark")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config(PrefetchSparkOptions.EXECUTOR_THREADS, "16")
            .getOrCreate();
    try {
      SimulatedFileSystem.configure(
          spark.sparkContext().hadoopConfiguration(),
          SparkScan.REMOTE_LATENCY_MS,
          SparkScan.REMOTE_BANDWIDTH_MBPS);
      List<Query> queries = queries(LineitemData.rows());
      List<Line> lines = new ArrayList<>();
      for (Map.Entry<String, Path> file : files.entrySet()) {
        String local = file.getValue().toAbsolutePath().toUri().toString();
        lines.addAll(run(spark, queries, file.getKey(), local, "local", repeat, 1, true));
      }
      if (remoteRepeat > 0) {
        for (Map.Entry<String, Path> file : files.entrySet()) {
          String remote = SimulatedFileSystem.pathOf(file.getValue()).toString();
          lines.addAll(
              run(spark, queries, file.getKey(), remote, "remote", remoteRepeat, 0, false));
        }
      }
      System.out.print(table(lines, master, LineitemData.rows()));
    } catch (IllegalStateException e) {
      System.err.println("spark-bench: " + e.getMessage());
      System.exit(1);
    } finally {
      spark.stop();
    }
  }

  /**
   * Every query on one file: first each reader's rows, compared; then {@code warmups} and {@code
   * repeat} timed runs per reader (each a newly planned query), alternating readers; with {@code
   * floor}, the same over the rows cached in memory.
   */
  static List<Line> run(
      SparkSession spark,
      List<Query> queries,
      String format,
      String path,
      String storage,
      int repeat,
      int warmups,
      boolean floor) {
    Dataset<Row> builtIn = spark.read().format(format).load(path);
    Dataset<Row> prefetch = spark.read().format("prefetch").load(path);
    for (Query query : queries) {
      List<Row> expected = collect(spark, builtIn, query);
      List<Row> ours = collect(spark, prefetch, query);
      if (!expected.equals(ours)) {
        throw new IllegalStateException(
            "the readers disagree on "
                + query.name()
                + " over "
                + path
                + ": built-in "
                + head(expected)
                + ", prefetch "
                + head(ours));
      }
    }
    List<Line> lines = new ArrayList<>();
    Dataset<Row> cached = null;
    if (floor) {
      cached = spark.read().format(format).load(path).cache();
      cached.count();
    }
    try {
      for (Query query : queries) {
        double[] builtInSeconds = new double[repeat];
        double[] prefetchSeconds = new double[repeat];
        for (int i = 0; i < warmups; i++) {
          time(spark, builtIn, query);
          time(spark, prefetch, query);
        }
        for (int i = 0; i < repeat; i++) {
          builtInSeconds[i] = time(spark, builtIn, query);
          prefetchSeconds[i] = time(spark, prefetch, query);
        }
        double floorSeconds = Double.NaN;
        if (cached != null) {
          double[] floors = new double[repeat];
          for (int i = 0; i < warmups; i++) {
            time(spark, cached, query);
          }
          for (int i = 0; i < repeat; i++) {
            floors[i] = time(spark, cached, query);
          }
          floorSeconds = median(floors);
        }
        lines.add(
            new Line(
                query.name(),
                format,
                storage,
                median(builtInSeconds),
                median(prefetchSeconds),
                floorSeconds));
      }
    } finally {
      if (cached != null) {
        cached.unpersist(true);
      }
    }
    return lines;
  }

  private static List<Row> collect(SparkSession spark, Dataset<Row> table, Query query) {
    table.createOrReplaceTempView("lineitem");
    return spark.sql(query.sql()).collectAsList();
  }

  private static double time(SparkSession spark, Dataset<Row> table, Query query) {
    table.createOrReplaceTempView("lineitem");
    Dataset<Row> planned = spark.sql(query.sql());
    long start = System.nanoTime();
    planned.collectAsList();
    return (System.nanoTime() - start) / 1e9;
  }

  private static String head(List<Row> rows) {
    return rows.size() <= 3 ? rows.toString() : rows.subList(0, 3) + "... (" + rows.size() + ")";
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The table of lines, and per format and storage the geometric mean of the ratios. */
  static String table(List<Line> lines, String master, long rows) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "lineitem-shaped table, %,d rows, %s; seconds are medians; ratio = built-in / prefetch"
                + " (above 1: prefetch faster); floor = the query over rows cached in memory%n",
            rows,
            master));
    out.append(
        String.format(
            Locale.ROOT,
            "%-11s %-8s %-7s %11s %11s %7s %9s %14s %14s%n",
            "query",
            "format",
            "storage",
            "built-in s",
            "prefetch s",
            "ratio",
            "floor s",
            "built-in-floor",
            "prefetch-floor"));
    Map<String, List<Double>> ratios = new LinkedHashMap<>();
    for (Line line : lines) {
      boolean floor = !Double.isNaN(line.floor());
      out.append(
          String.format(
              Locale.ROOT,
              "%-11s %-8s %-7s %11.3f %11.3f %7.2f %9s %14s %14s%n",
              line.query(),
              line.format(),
              line.storage(),
              line.builtIn(),
              line.prefetch(),
              line.ratio(),
              floor ? String.format(Locale.ROOT, "%.3f", line.floor()) : "-",
              floor ? String.format(Locale.ROOT, "%.3f", line.builtIn() - line.floor()) : "-",
              floor ? String.format(Locale.ROOT, "%.3f", line.prefetch() - line.floor()) : "-"));
      ratios
          .computeIfAbsent(line.format() + " " + line.storage(), k -> new ArrayList<>())
          .add(line.ratio());
    }
    for (Map.Entry<String, List<Double>> group : ratios.entrySet()) {
      double logs = 0;
      for (double ratio : group.getValue()) {
        logs += Math.log(ratio);
      }
      String[] key = group.getKey().split(" ", 2);
      out.append(
          String.format(
              Locale.ROOT,
              "%-11s %-8s %-7s %11s %11s %7.2f%n",
              "geomean",
              key[0],
              key[1],
              "",
              "",
              Math.exp(logs / group.getValue().size())));
    }
    return out.toString();
  }
}
