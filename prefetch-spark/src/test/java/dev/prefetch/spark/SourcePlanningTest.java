package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static dev.prefetch.spark.SharedSpark.builtIn;
import static dev.prefetch.spark.SharedSpark.generate;
import static dev.prefetch.spark.SharedSpark.prefetch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.spark.internal.ScanMetrics;
import dev.prefetch.testkit.gen.GenSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Spark's file-source machinery brings (partition directories, pruning, splits) and what the
 * source adds to the plan (pushed filters, columnar batches, metrics), each checked against Spark's
 * own readers.
 */
class SourcePlanningTest {

  @TempDir static Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void writeFiles() throws Exception {
    spark = SharedSpark.session();
    for (String format : new String[] {"parquet", "orc"}) {
      generate(
          dir.resolve("scan-" + format), format, GenSpec.Kind.SCAN, 16_000, 8, 8 << 10, "snappy");
      spark
          .sql(
              "SELECT id, CAST(id % 3 AS INT) AS k, CONCAT('v', id) AS v,"
                  + " 2020 + CAST(id % 3 AS INT) AS year, LPAD(CAST(id % 2 + 1 AS STRING), 2, '0') AS month"
                  + " FROM RANGE(0, 6000, 1, 4)")
          .write()
          .partitionBy("year", "month")
          .format(format)
          .save(dir.resolve("hive-" + format).toString());
    }
    writeUnionFile(dir.resolve("union-orc").resolve("union.orc"));
    // One row group of about 14 MB: one split, one task.
    generate(
        dir.resolve("one-row-group"), "parquet", GenSpec.Kind.SCAN, 200_000, 1, 8 << 10, "none");
  }

  @AfterEach
  void resetSettings() {
    spark.conf().unset("spark.sql.files.maxPartitionBytes");
    spark.conf().unset("spark.sql.files.openCostInBytes");
    spark.conf().unset("spark.sql.files.minPartitionNum");
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void hivePartitionDirectoriesBecomeColumnsAndArePruned(String format) {
    Dataset<Row> ours = prefetch(dir, "hive-" + format);
    assertThat(ours.schema().fieldNames()).containsExactly("id", "k", "v", "year", "month");
    assertSameRows(builtIn(dir, format, "hive-" + format), ours);
    String where = "year = 2021 AND month = '02' AND k = 1";
    Dataset<Row> pruned = ours.where(where);
    assertSameRows(builtIn(dir, format, "hive-" + format).where(where), pruned);
    String plan = pruned.queryExecution().executedPlan().toString();
    assertThat(plan).contains("PartitionFilters: [").contains("year").contains("month");
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void smallSplitsCutEachFileIntoManyTasksAndReadEveryRowOnce(String format) {
    Dataset<Row> expected = builtIn(dir, format, "scan-" + format);
    spark.conf().set("spark.sql.files.maxPartitionBytes", "64k");
    spark.conf().set("spark.sql.files.openCostInBytes", "0");
    Dataset<Row> ours = prefetch(dir, "scan-" + format);
    assertThat(ours.rdd().getNumPartitions()).isGreaterThan(4);
    assertSameRows(expected, ours);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void projectedColumnsAndPushedFiltersGiveSparksRows(String format) {
    String where =
        "id < 3000 AND qty >= 10 AND category IS NOT NULL AND code IS NULL OR id = 15999";
    Dataset<Row> expected =
        builtIn(dir, format, "scan-" + format).select("category", "id", "price").where(where);
    Dataset<Row> ours =
        prefetch(dir, "scan-" + format).select("category", "id", "price").where(where);
    assertSameRows(expected, ours);
    String plan = ours.queryExecution().executedPlan().toString();
    assertThat(plan).contains("PushedFilters: [").contains("LessThan(id,3000)");
    assertThat(plan)
        .contains("ReadSchema: struct<id:bigint,qty:int,price:double,category:string")
        .doesNotContain("comment");
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void pushedFiltersPruneRowGroupsAndStripes(String format) {
    // By parts: the bytes a pruned scan saves are what is measured, and a file this small
    // would be read whole.
    Dataset<Row> all =
        spark
            .read()
            .format("prefetch")
            .option("read.whole-file-bytes", "0")
            .load(dir.resolve("scan-" + format).toString())
            .select("id", "comment");
    Dataset<Row> few = all.where("id < 2000");
    assertThat(few.count()).isEqualTo(2000); // the first row group of eight
    long allBytes = bytesRead(all.where("comment IS NOT NULL OR comment IS NULL"));
    long fewBytes = bytesRead(few);
    assertThat(fewBytes).isPositive().isLessThan(allBytes / 2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void planIsABatchScanWithColumnarToRowAndMetricsAreCounted(String format) {
    Dataset<Row> query = prefetch(dir, "scan-" + format).selectExpr("sum(qty)", "count(*)");
    query.collectAsList();
    String plan = query.queryExecution().executedPlan().toString();
    assertThat(plan).contains("BatchScan").contains("ColumnarToRow");
    BatchScanExec scan = batchScan(query.queryExecution().executedPlan());
    assertThat(metric(scan, ScanMetrics.BYTES_READ)).isPositive();
    assertThat(metric(scan, ScanMetrics.READ_REQUESTS)).isPositive();
    assertThat(
            metric(scan, ScanMetrics.FOOTER_CACHE_HITS)
                + metric(scan, ScanMetrics.FOOTER_CACHE_MISSES))
        .isPositive();
    assertThat(scan.metrics().contains(ScanMetrics.PRODUCER_WAIT_MS)).isTrue();
    assertThat(scan.metrics().contains(ScanMetrics.CONSUMER_WAIT_MS)).isTrue();
  }

  @Test
  void aTaskWhoseSplitIsOneLargeRowGroupStillReadsItWithManyProducers() {
    // One split for the whole file (Spark would otherwise cut it in two for two cores; the split
    // without the row group's midpoint would read nothing).
    spark.conf().set("spark.sql.files.minPartitionNum", "1");
    // The selected columns hold a few MB, under the default 10 MiB below which a split is read on
    // the task's thread; a row group of a real table is larger.
    Dataset<Row> ours =
        spark
            .read()
            .format("prefetch")
            .option("prefetch.min-read-bytes", "1m")
            .load(dir.resolve("one-row-group").toString());
    assertThat(ours.rdd().getNumPartitions()).isEqualTo(1);
    String[] aggregate = {"count(*)", "sum(id)", "max(comment)", "sum(qty)", "max(category)"};
    Dataset<Row> query = ours.selectExpr(aggregate);
    assertThat(query.collectAsList())
        .isEqualTo(builtIn(dir, "parquet", "one-row-group").selectExpr(aggregate).collectAsList());
    BatchScanExec scan = batchScan(query.queryExecution().executedPlan());
    // Page slices of the one row group, shared by the task's producers.
    assertThat(metric(scan, ScanMetrics.READ_RANGES)).isGreaterThan(1);
    assertThat(metric(scan, ScanMetrics.PRODUCERS)).isGreaterThan(1);
  }

  @Test
  void countOnlyQueriesReadRowCounts() {
    assertThat(prefetch(dir, "scan-parquet").count()).isEqualTo(16_000);
    assertThat(prefetch(dir, "scan-orc").count()).isEqualTo(16_000);
    assertThat(prefetch(dir, "hive-orc").where("year = 2020").count())
        .isEqualTo(builtIn(dir, "orc", "hive-orc").where("year = 2020").count());
  }

  @Test
  void orcUnionsReadAsStructsOfTagAndAlternatives() {
    // Spark's own ORC reader cannot read unions (its schema inference rejects them), so the
    // expected rows are what orc-core was given.
    Dataset<Row> expected =
        spark.sql(
            "SELECT id, IF(id % 10 = 9, NULL, NAMED_STRUCT("
                + "'tag', CAST(IF(id % 3 = 0, 1, 0) AS TINYINT),"
                + " 'field0', IF(id % 3 = 0, NULL, CAST(id * 7 AS INT)),"
                + " 'field1', IF(id % 3 = 0, CONCAT('u', id), NULL))) AS u FROM RANGE(0, 3000)");
    Dataset<Row> ours = prefetch(dir, "union-orc");
    assertThat(ours.schema().simpleString())
        .isEqualTo("struct<id:bigint,u:struct<tag:tinyint,field0:int,field1:string>>");
    assertSameRows(spark.createDataFrame(expected.collectAsList(), ours.schema()), ours);
  }

  @Test
  void readOptionsAreValidatedAndSessionSettingsApply() {
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .format("prefetch")
                    .option("prefetch.nope", "1")
                    .load(dir.resolve("scan-parquet").toString())
                    .count())
        .hasStackTraceContaining("prefetch.nope");
    spark.conf().set("spark.prefetch.parallelism", "3");
    try {
      assertThat(
              spark
                  .read()
                  .format("prefetch")
                  .option("read.batch-size", "1000")
                  .load(dir.resolve("scan-orc").toString())
                  .count())
          .isEqualTo(16_000);
      spark.conf().set("spark.prefetch.parallelism", "0");
      assertThatThrownBy(() -> prefetch(dir, "scan-orc").count())
          .hasStackTraceContaining("prefetch.parallelism");
    } finally {
      spark.conf().unset("spark.prefetch.parallelism");
    }
  }

  @Test
  void writesAreRefused() {
    assertThatThrownBy(
            () ->
                spark
                    .range(3)
                    .write()
                    .format("prefetch")
                    .mode("overwrite")
                    .save(dir.resolve("out").toString()))
        .hasStackTraceContaining("reads only");
  }

  private static long bytesRead(Dataset<Row> query) {
    query.collectAsList();
    return metric(batchScan(query.queryExecution().executedPlan()), ScanMetrics.BYTES_READ);
  }

  private static BatchScanExec batchScan(SparkPlan plan) {
    scala.collection.Iterator<SparkPlan> nodes = plan.collectLeaves().iterator();
    while (nodes.hasNext()) {
      SparkPlan node = nodes.next();
      if (node instanceof BatchScanExec scan) {
        return scan;
      }
    }
    throw new AssertionError("no BatchScan in " + plan);
  }

  private static long metric(BatchScanExec scan, String name) {
    SQLMetric metric = scan.metrics().get(name).get();
    return metric.value();
  }

  /** A small ORC file with a union column, written by orc-core (Spark cannot write unions). */
  private static void writeUnionFile(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    TypeDescription schema =
        TypeDescription.fromString("struct<id:bigint,u:uniontype<int,string>>");
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      LongColumnVector id = (LongColumnVector) batch.cols[0];
      UnionColumnVector union = (UnionColumnVector) batch.cols[1];
      LongColumnVector ints = (LongColumnVector) union.fields[0];
      BytesColumnVector strings = (BytesColumnVector) union.fields[1];
      for (int row = 0; row < 3000; row++) {
        int r = batch.size++;
        id.vector[r] = row;
        if (row % 10 == 9) {
          union.noNulls = false;
          union.isNull[r] = true;
        } else {
          union.isNull[r] = false;
          union.tags[r] = row % 3 == 0 ? 1 : 0;
          if (union.tags[r] == 0) {
            ints.vector[r] = row * 7L;
          } else {
            strings.setVal(r, ("u" + row).getBytes(StandardCharsets.UTF_8));
          }
        }
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      writer.addRowBatch(batch);
    }
  }
}
