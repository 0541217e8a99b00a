package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many tasks share one small producer pool: {@code local[8]} runs eight tasks at once, each
 * prefetching with its own producers, on an executor pool of two threads, over 32 files.
 */
class SharedPoolTest {

  @TempDir static Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void startEightTaskSession() {
    SharedSpark.stop();
    spark =
        SparkSession.builder()
            .master("local[8]")
            .appName("prefetch-shared-pool")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config(PrefetchSparkOptions.EXECUTOR_THREADS, "2")
            .getOrCreate();
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void eightTasksOnTwoProducerThreadsRead32FilesCorrectly() {
    for (String format : new String[] {"parquet", "orc"}) {
      String path = dir.resolve("many-" + format).toString();
      spark
          .sql(
              "SELECT id, CONCAT('row-', id) AS name, id * 0.5 AS half FROM RANGE(0, 160000, 1, 32)")
          .write()
          .format(format)
          .option("parquet.block.size", "65536")
          .option("orc.stripe.size", "65536")
          .save(path);
      Dataset<Row> expected = spark.read().format(format).load(path);
      // Every reader prefetches (no size threshold), with two producers and short queues, so
      // sixteen producers of eight open readers contend for two threads.
      Dataset<Row> ours =
          spark
              .read()
              .format("prefetch")
              .option("prefetch.min-read-bytes", "0")
              .option("prefetch.parallelism", "2")
              .option("prefetch.queue-capacity", "1")
              .option("read.batch-size", "1000")
              .load(path);
      assertThat(ours.rdd().getNumPartitions()).isGreaterThanOrEqualTo(8);
      assertSameRows(expected, ours);
    }
  }
}
