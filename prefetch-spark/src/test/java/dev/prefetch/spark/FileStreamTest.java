package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.spark.internal.ScanMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task whose partition holds several files (Spark packs small files into one task) reads them as
 * one stream, one reader per task ({@value ScanMetrics#READERS}), with the rows of Spark's own
 * readers: partition columns, pushed filters, projections, {@code input_file_name()}, splits of a
 * large file beside small files. Where the stream cannot serve, the task reads its files one by one
 * as before (a predicate over files of two formats, a file lacking a column of the read), and with
 * {@code ignoreCorruptFiles} / {@code ignoreMissingFiles} a stream skips a bad file with a warning
 * naming it and goes on with the files after it.
 */
class FileStreamTest {

  @TempDir static Path dir;

  private static SparkSession spark;

  private static final String COLUMNS =
      "id, CAST(id % 7 AS INT) AS k, CONCAT('v', id) AS v, id * 0.5 AS d,"
          + " IF(id % 11 = 0, NULL, id) AS n";

  /** The schema of the tables without partition directories. */
  private static final String FLAT = "id BIGINT, v STRING";

  private static final String[] AGGREGATE = {
    "count(*)", "sum(id)", "max(v)", "sum(d)", "count(n)", "sum(k)"
  };

  @BeforeAll
  static void writeTables() {
    spark = SharedSpark.session();
    for (String format : new String[] {"parquet", "orc"}) {
      // 30 files of about 1,000 rows: 10 writers x 3 partition directories.
      spark
          .sql(
              "SELECT "
                  + COLUMNS
                  + ", ELT(CAST(id % 3 AS INT) + 1, 'a', 'b', 'c') AS part"
                  + " FROM RANGE(0, 30000, 1, 10)")
          .write()
          .partitionBy("part")
          .format(format)
          .save(table("hive", format).toString());
    }
  }

  @BeforeEach
  void manyFilesPerTask() {
    spark.conf().set("spark.sql.files.maxPartitionBytes", "128k");
    spark.conf().set("spark.sql.files.openCostInBytes", "1k");
  }

  @AfterEach
  void resetSettings() {
    for (String key :
        new String[] {
          "spark.sql.files.maxPartitionBytes",
          "spark.sql.files.openCostInBytes",
          "spark.sql.files.minPartitionNum",
          "spark.sql.files.ignoreCorruptFiles",
          "spark.sql.files.ignoreMissingFiles"
        }) {
      spark.conf().unset(key);
    }
  }

  private static Path table(String name, String format) {
    return dir.resolve(name + "-" + format);
  }

  private static Dataset<Row> builtIn(String format, Path table) {
    return spark.read().format(format).load(table.toString());
  }

  /** Our source, with batches smaller than a file so that files span several batches. */
  private static Dataset<Row> ours(Path table, Map<String, String> options) {
    return spark
        .read()
        .format("prefetch")
        .option("read.batch-size", "300")
        .options(options)
        .load(table.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void aTaskReadsItsManySmallFilesAsOneStreamWithSparksRows(String format) {
    Path table = table("hive", format);
    Dataset<Row> expected = builtIn(format, table);
    Dataset<Row> actual = ours(table, Map.of());
    assertSameRows(expected, actual);
    String where = "k = 3 AND v > 'v2' OR n IS NULL";
    assertSameRows(expected.where(where), actual.where(where));
    String[] projection = {"input_file_name() AS file", "v", "part", "n"};
    assertSameRows(
        expected.where("part <> 'a'").selectExpr(projection),
        actual.where("part <> 'a'").selectExpr(projection));

    Dataset<Row> query = actual.selectExpr(AGGREGATE);
    assertThat(query.collectAsList()).isEqualTo(expected.selectExpr(AGGREGATE).collectAsList());
    BatchScanExec scan = scanOf(query);
    assertThat(partitions(scan)).isGreaterThan(1);
    assertThat(splits(scan)).isEqualTo(30).isGreaterThan(2 * partitions(scan));
    assertThat(metric(scan, ScanMetrics.READERS)).isEqualTo(partitions(scan));

    Dataset<Row> filtered = actual.where(where).select("id", "part");
    assertSameRows(expected.where(where).select("id", "part"), filtered);
    BatchScanExec filteredScan = batchScan(filtered);
    assertThat(filtered.queryExecution().executedPlan().toString()).contains("EqualTo(k,3)");
    assertThat(metric(filteredScan, ScanMetrics.READERS)).isEqualTo(partitions(filteredScan));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void withTheStreamSwitchedOffEveryFileHasAReaderOfItsOwn(String format) {
    Path table = table("hive", format);
    Dataset<Row> query =
        ours(table, Map.of(PrefetchSparkOptions.STREAM_FILES, "false")).selectExpr(AGGREGATE);
    assertThat(query.collectAsList())
        .isEqualTo(builtIn(format, table).selectExpr(AGGREGATE).collectAsList());
    BatchScanExec scan = scanOf(query);
    assertThat(metric(scan, ScanMetrics.READERS)).isEqualTo(splits(scan)).isEqualTo(30);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void aStreamReadsTheTailSplitsOfSeveralFilesEveryRowOnce(String format) throws IOException {
    Path table = table("split", format);
    // Six files of several row groups (stripes) each.
    spark
        .sql("SELECT " + COLUMNS + " FROM RANGE(0, 60000, 1, 6)")
        .write()
        .option("parquet.block.size", "16384")
        .option("orc.stripe.size", "16384")
        .option("orc.rows.between.memory.checks", "500")
        .format(format)
        .save(table.toString());
    // Splits of three quarters of the smallest file: each file is cut in a full split and a tail
    // (or more), and Spark packs the tails together into tasks.
    long smallest = Long.MAX_VALUE;
    for (Path file : dataFiles(table, format)) {
      smallest = Math.min(smallest, Files.size(file));
    }
    spark.conf().set("spark.sql.files.maxPartitionBytes", String.valueOf(smallest * 3 / 4));
    Dataset<Row> expected = builtIn(format, table);
    Dataset<Row> actual = ours(table, Map.of());
    assertSameRows(expected, actual);
    assertSameRows(expected.where("id % 1000 < 3"), actual.where("id % 1000 < 3"));

    Dataset<Row> query = actual.selectExpr(AGGREGATE);
    assertThat(query.collectAsList()).isEqualTo(expected.selectExpr(AGGREGATE).collectAsList());
    BatchScanExec scan = scanOf(query);
    Map<String, Integer> splitsPerFile = new HashMap<>();
    for (InputPartition partition : inputPartitions(scan)) {
      for (PartitionedFile file : ((FilePartition) partition).files()) {
        splitsPerFile.merge(file.urlEncodedPath(), 1, Integer::sum);
      }
    }
    assertThat(splitsPerFile).hasSize(6);
    assertThat(splitsPerFile.values()).allMatch(splits -> splits >= 2);
    assertThat(hasPartOfAFileWithOthers(scan)).isTrue();
    assertThat(metric(scan, ScanMetrics.READERS)).isEqualTo(partitions(scan));
  }

  /** Whether some task reads a split that is part of a file, beside other splits. */
  private static boolean hasPartOfAFileWithOthers(BatchScanExec scan) {
    for (InputPartition partition : inputPartitions(scan)) {
      PartitionedFile[] files = ((FilePartition) partition).files();
      if (files.length < 2) {
        continue;
      }
      for (PartitionedFile file : files) {
        if (file.length() < file.fileSize()) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void filesOfTwoFormatsStreamWithoutAPredicateAndAreReadOneByOneWithOne() {
    Path table = dir.resolve("mixed");
    spark
        .sql("SELECT id, CONCAT('v', id) AS v FROM RANGE(0, 6000, 1, 6)")
        .write()
        .format("parquet")
        .save(table.toString());
    spark
        .sql("SELECT id, CONCAT('v', id) AS v FROM RANGE(6000, 12000, 1, 6)")
        .write()
        .mode("append")
        .format("orc")
        .save(table.toString());
    spark.conf().set("spark.sql.files.minPartitionNum", "1");
    spark.conf().set("spark.sql.files.maxPartitionBytes", "128m");
    Dataset<Row> expected =
        spark
            .read()
            .schema(FLAT)
            .option("pathGlobFilter", "*.parquet")
            .parquet(table.toString())
            .union(
                spark.read().schema(FLAT).option("pathGlobFilter", "*.orc").orc(table.toString()));
    assertThat(expected.count()).isEqualTo(12_000);
    Dataset<Row> actual = spark.read().format("prefetch").schema(FLAT).load(table.toString());
    assertSameRows(expected, actual);
    BatchScanExec all = batchScan(actual.selectExpr("count(*)", "max(v)"));
    assertThat(partitions(all)).isEqualTo(1);
    assertThat(metric(all, ScanMetrics.READERS)).isEqualTo(1);

    // A predicate is typed for one format: these files are read one by one.
    Dataset<Row> filtered = actual.where("id >= 5500 AND id < 6500");
    assertSameRows(expected.where("id >= 5500 AND id < 6500"), filtered);
    BatchScanExec scan = batchScan(filtered);
    assertThat(filtered.queryExecution().executedPlan().toString())
        .contains("GreaterThanOrEqual(id,5500)");
    assertThat(metric(scan, ScanMetrics.READERS)).isEqualTo(splits(scan)).isEqualTo(12);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void aFileLackingAColumnOfTheReadAndTheFilesAfterItAreReadOneByOne(String format) {
    Path table = table("merge", format);
    spark
        .sql("SELECT id, CONCAT('a', id) AS a, id * 1.5 AS b FROM RANGE(0, 3000, 1, 3)")
        .write()
        .format(format)
        .save(table.resolve("p=1").toString());
    spark
        .sql("SELECT id, CONCAT('a', id) AS a FROM RANGE(3000, 6000, 1, 3)")
        .write()
        .format(format)
        .save(table.resolve("p=2").toString());
    spark.conf().set("spark.sql.files.minPartitionNum", "1");
    spark.conf().set("spark.sql.files.maxPartitionBytes", "128m");
    Map<String, String> merge = Map.of("mergeSchema", "true");
    Dataset<Row> expected = spark.read().format(format).options(merge).load(table.toString());
    Dataset<Row> actual = ours(table, merge);
    assertThat(expected.schema().fieldNames()).containsExactlyInAnyOrder("id", "a", "b", "p");
    assertSameRows(expected, actual);
    assertSameRows(expected.where("b > 1000 OR b IS NULL"), actual.where("b > 1000 OR b IS NULL"));
    Dataset<Row> query = actual.selectExpr("count(*)", "sum(b)", "count(b)", "max(a)");
    assertThat(query.collectAsList())
        .isEqualTo(expected.selectExpr("count(*)", "sum(b)", "count(b)", "max(a)").collectAsList());
    BatchScanExec scan = scanOf(query);
    assertThat(partitions(scan)).isEqualTo(1);
    // From the first file without b on, one reader per file.
    assertThat(metric(scan, ScanMetrics.READERS)).isGreaterThan(3).isLessThanOrEqualTo(6);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void aColumnNoFileHoldsReadsAsNullsFileByFile(String format) {
    Path table = table("hive", format);
    String schema = "id BIGINT, v STRING, extra INT, part STRING";
    Dataset<Row> expected = spark.read().format(format).schema(schema).load(table.toString());
    Dataset<Row> actual = spark.read().format("prefetch").schema(schema).load(table.toString());
    assertThat(expected.where("extra IS NOT NULL").count()).isZero();
    assertSameRows(expected, actual);
    Dataset<Row> query = actual.selectExpr("count(*)", "count(extra)", "max(v)", "max(part)");
    assertThat(query.collectAsList())
        .isEqualTo(
            expected.selectExpr("count(*)", "count(extra)", "max(v)", "max(part)").collectAsList());
    BatchScanExec scan = scanOf(query);
    assertThat(metric(scan, ScanMetrics.READERS)).isEqualTo(splits(scan));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void corruptFilesInAStreamAreSkippedWithAWarningAndTheFilesAfterThemRead(String format)
      throws IOException {
    Path table = table("corrupt", format);
    writeFlat(table, format);
    List<Path> files = dataFiles(table, format);
    List<Long> sizes = new ArrayList<>();
    for (Path file : files) {
      sizes.add(Files.size(file));
    }
    Collections.sort(sizes);
    // Garbage of a data file's median size lands among them in a task (Spark orders a task's
    // files by size); a file cut short lacks its footer.
    byte[] garbage = new byte[Math.toIntExact(sizes.get(sizes.size() / 2))];
    new Random(7).nextBytes(garbage);
    Files.write(table.resolve("zz-garbage." + format), garbage);
    byte[] whole = Files.readAllBytes(files.get(0));
    Files.write(
        table.resolve("zz-truncated." + format),
        java.util.Arrays.copyOf(whole, whole.length * 3 / 4));
    spark.conf().set("spark.sql.files.minPartitionNum", "1");
    spark.conf().set("spark.sql.files.maxPartitionBytes", "128m");

    spark.conf().set("spark.sql.files.ignoreCorruptFiles", "true");
    Dataset<Row> expected = spark.read().format(format).schema(FLAT).load(table.toString());
    Dataset<Row> actual = spark.read().format("prefetch").schema(FLAT).load(table.toString());
    assertThat(expected.count()).isEqualTo(12_000);
    try (Warnings warnings = new Warnings()) {
      assertSameRows(expected, actual);
      assertThat(warnings.messages())
          .anyMatch(m -> m.contains("zz-garbage." + format))
          .anyMatch(m -> m.contains("zz-truncated." + format));
    }
    BatchScanExec scan = batchScan(actual.selectExpr("count(*)", "max(v)"));
    assertThat(splits(scan)).isEqualTo(14);
    assertThat(metric(scan, ScanMetrics.READERS)).isLessThanOrEqualTo(3);

    spark.conf().set("spark.sql.files.ignoreCorruptFiles", "false");
    assertThatThrownBy(() -> actual.selectExpr("max(v)").collectAsList())
        .hasStackTraceContaining("zz-");
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void filesThatVanishFromAStreamAreSkippedWithAWarningWithIgnoreMissingFiles(String format)
      throws IOException {
    Path table = table("missing", format);
    writeFlat(table, format);
    spark.conf().set("spark.sql.files.minPartitionNum", "1");
    spark.conf().set("spark.sql.files.maxPartitionBytes", "128m");
    Dataset<Row> expected = spark.read().format(format).schema(FLAT).load(table.toString());
    Dataset<Row> actual = spark.read().format("prefetch").schema(FLAT).load(table.toString());
    List<Path> files = dataFiles(table, format);
    List<Path> gone = List.of(files.get(4), files.get(7));
    for (Path file : gone) {
      Files.delete(file);
      Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    }

    spark.conf().set("spark.sql.files.ignoreMissingFiles", "true");
    assertThat(expected.count()).isEqualTo(10_000);
    try (Warnings warnings = new Warnings()) {
      assertSameRows(expected, actual);
      for (Path file : gone) {
        assertThat(warnings.messages())
            .anyMatch(m -> m.contains("missing") && m.contains(file.getFileName().toString()));
      }
    }
    BatchScanExec scan = batchScan(actual.selectExpr("count(*)", "max(v)"));
    assertThat(metric(scan, ScanMetrics.READERS)).isLessThanOrEqualTo(3);

    spark.conf().set("spark.sql.files.ignoreMissingFiles", "false");
    // The first of them in the task's order fails the query.
    assertThatThrownBy(() -> actual.selectExpr("max(v)").collectAsList())
        .satisfies(
            e -> {
              java.io.StringWriter trace = new java.io.StringWriter();
              e.printStackTrace(new java.io.PrintWriter(trace));
              assertThat(trace.toString())
                  .contains("FILE_NOT_EXIST")
                  .containsAnyOf(
                      gone.get(0).getFileName().toString(), gone.get(1).getFileName().toString());
            });
  }

  /** Twelve files of 1,000 rows each, no partition directories. */
  private static void writeFlat(Path table, String format) {
    spark
        .sql("SELECT id, CONCAT('v', id) AS v FROM RANGE(0, 12000, 1, 12)")
        .write()
        .format(format)
        .save(table.toString());
  }

  private static List<Path> dataFiles(Path table, String format) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith("part-"))
          .filter(f -> f.getFileName().toString().endsWith("." + format))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /**
   * The executed scan of {@code query}, after running it once (its metrics are then final; a second
   * run would reset them and, reusing the shuffle's output, not read again).
   */
  private static BatchScanExec batchScan(Dataset<Row> query) {
    query.collectAsList();
    return scanOf(query);
  }

  /** The executed scan of {@code query}, which ran once. */
  private static BatchScanExec scanOf(Dataset<Row> query) {
    SparkPlan plan = query.queryExecution().executedPlan();
    scala.collection.Iterator<SparkPlan> nodes = plan.collectLeaves().iterator();
    while (nodes.hasNext()) {
      SparkPlan node = nodes.next();
      if (node instanceof BatchScanExec scan) {
        return scan;
      }
    }
    throw new AssertionError("no BatchScan in " + plan);
  }

  private static List<InputPartition> inputPartitions(BatchScanExec scan) {
    return scala.jdk.javaapi.CollectionConverters.asJava(scan.inputPartitions());
  }

  private static int partitions(BatchScanExec scan) {
    return inputPartitions(scan).size();
  }

  /** Files and splits over the scan's tasks. */
  private static int splits(BatchScanExec scan) {
    int splits = 0;
    for (InputPartition partition : inputPartitions(scan)) {
      splits += ((FilePartition) partition).files().length;
    }
    return splits;
  }

  private static long metric(BatchScanExec scan, String name) {
    return scan.metrics().get(name).get().value();
  }

  /** The warnings the stream logs while open (tasks run in this JVM). */
  private static final class Warnings implements AutoCloseable {
    private static final String LOGGER = "dev.prefetch.spark.internal.FileStreamReader";

    private final List<String> messages = Collections.synchronizedList(new ArrayList<>());
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final AbstractAppender appender;

    Warnings() {
      appender =
          new AbstractAppender("stream-warnings", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
              messages.add(event.getMessage().getFormattedMessage());
            }
          };
      appender.start();
      Configuration config = context.getConfiguration();
      LoggerConfig logger = new LoggerConfig(LOGGER, Level.WARN, true);
      logger.addAppender(appender, Level.WARN, null);
      config.addLogger(LOGGER, logger);
      context.updateLoggers();
    }

    List<String> messages() {
      synchronized (messages) {
        return List.copyOf(messages);
      }
    }

    @Override
    public void close() {
      context.getConfiguration().removeLogger(LOGGER);
      context.updateLoggers();
      appender.stop();
    }
  }
}
