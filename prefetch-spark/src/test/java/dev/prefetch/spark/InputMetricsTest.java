package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.generate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.spark.internal.ScanMetrics;
import dev.prefetch.testkit.gen.GenSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A stage reading through the source shows its input in Spark's task metrics, as one reading
 * through Spark's own readers does: {@code inputMetrics.bytesRead} is what the reader fetched (its
 * {@code bytesRead}, the scan's {@value ScanMetrics#BYTES_READ} metric), although producers fetch
 * on threads of their own, and {@code inputMetrics.recordsRead} the rows read. Seen by a {@link
 * SparkListener}, as Spark's UI and event log see them.
 */
class InputMetricsTest {

  @TempDir static Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void writeFiles() throws Exception {
    spark = SharedSpark.session();
    for (String format : new String[] {"parquet", "orc"}) {
      generate(
          dir.resolve("scan-" + format), format, GenSpec.Kind.SCAN, 40_000, 8, 8 << 10, "snappy");
    }
  }

  /** Every task's input metrics, as a listener sees them when tasks end. */
  private static final class InputListener extends SparkListener {
    final List<long[]> tasks = new ArrayList<>();

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      if (taskEnd.taskMetrics() != null) {
        tasks.add(
            new long[] {
              taskEnd.taskMetrics().inputMetrics().bytesRead(),
              taskEnd.taskMetrics().inputMetrics().recordsRead()
            });
      }
    }

    synchronized long bytesRead() {
      return tasks.stream().mapToLong(t -> t[0]).sum();
    }

    synchronized long recordsRead() {
      return tasks.stream().mapToLong(t -> t[1]).sum();
    }
  }

  /**
   * Runs {@code query} and returns its tasks' input bytes and records and, when it scans through
   * the prefetch source, the scan's {@value ScanMetrics#BYTES_READ} (else -1).
   */
  private static long[] run(Dataset<Row> query) throws TimeoutException {
    InputListener listener = new InputListener();
    spark.sparkContext().addSparkListener(listener);
    try {
      query.collectAsList();
      spark.sparkContext().listenerBus().waitUntilEmpty(30_000);
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    BatchScanExec scan = batchScan(query.queryExecution().executedPlan());
    long fetched = scan == null ? -1 : scan.metrics().get(ScanMetrics.BYTES_READ).get().value();
    return new long[] {listener.bytesRead(), listener.recordsRead(), fetched};
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "parquet, producers",
    "parquet, task thread",
    "parquet, many splits",
    "orc, producers",
    "orc, task thread",
    "orc, many splits"
  })
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void inputBytesAreTheBytesTheReaderFetchedAndRecordsTheRowsRead(String format, String path)
      throws TimeoutException {
    // Producers: every split prefetches; task thread: splits this small are read on the task's
    // thread; many splits: each task reads several splits, one reader after another.
    Map<String, String> options =
        path.equals("task thread")
            ? Map.of()
            : Map.of("prefetch.min-read-bytes", "0", "prefetch.parallelism", "3");
    if (path.equals("many splits")) {
      spark.conf().set("spark.sql.files.maxPartitionBytes", "96k");
      spark.conf().set("spark.sql.files.openCostInBytes", "0");
    }
    try {
      String table = dir.resolve("scan-" + format).toString();
      Dataset<Row> ours =
          spark
              .read()
              .format("prefetch")
              .options(options)
              .load(table)
              .selectExpr("sum(qty)", "count(category)", "max(comment)");
      long[] prefetch = run(ours);
      assertThat(prefetch[2]).as("bytes the reader fetched").isPositive();
      assertThat(prefetch[0]).as("input bytes of the tasks").isEqualTo(prefetch[2]);
      assertThat(prefetch[1]).as("input records of the tasks").isEqualTo(40_000);

      // Spark's own reader of the same columns: its input shows the same kind of figures.
      long[] builtIn =
          run(
              spark
                  .read()
                  .format(format)
                  .load(table)
                  .selectExpr("sum(qty)", "count(category)", "max(comment)"));
      assertThat(builtIn[0]).as("Spark's reader's input bytes").isPositive();
      assertThat(builtIn[1]).as("Spark's reader's input records").isEqualTo(40_000);
    } finally {
      spark.conf().unset("spark.sql.files.maxPartitionBytes");
      spark.conf().unset("spark.sql.files.openCostInBytes");
    }
  }

  private static BatchScanExec batchScan(SparkPlan plan) {
    scala.collection.Iterator<SparkPlan> nodes = plan.collectLeaves().iterator();
    while (nodes.hasNext()) {
      SparkPlan node = nodes.next();
      if (node instanceof BatchScanExec scan) {
        return scan;
      }
    }
    return null;
  }
}
