import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * A Spark application as a user writes one: run by the {@code java} launcher from this source file
 * (so it is compiled against, and runs on, exactly the class path it is given: Spark's jars and
 * the prefetch bundle), it reads each table with Spark's built-in reader and with {@code
 * format("prefetch")} and compares every row.
 *
 * <pre>
 *   java -cp SPARK_JARS:BUNDLE BundleCheck.java MASTER [--conf key=value]...
 *       [--variants default,producers] [--executors N] NAME|FORMAT|PATH[|REFERENCE_PATH]...
 * </pre>
 *
 * A table's rows are compared with Spark's read of {@code REFERENCE_PATH} when given (the same rows
 * in a codec Spark's own reader lacks), else of {@code PATH}. Prints one line per table and read
 * variant (default: on the default path, and with producers on every file: {@code OK name variant
 * rows=N}, or {@code DIFF} / {@code FAIL} with the reason), the
 * line {@code BUNDLE} with where the source's class was loaded from, and with {@code --executors N}
 * (wait for N executors first) the line {@code EXECUTORS} with the executor ids whose JVMs ran the
 * prefetch source's tasks. Exit status 0 when every table agrees, 1 otherwise.
 */
public final class BundleCheck {

  /** How the prefetch source reads: as configured by default, and with producers on any file. */
  private static final Map<String, Map<String, String>> VARIANTS =
      Map.of(
          "default", Map.of(),
          "producers", Map.of("prefetch.min-read-bytes", "0", "prefetch.parallelism", "2"));

  private static final String USAGE =
      "BundleCheck MASTER [--conf key=value]... [--variants default,producers] [--executors N]"
          + " NAME|FORMAT|PATH[|REFERENCE_PATH]...";

  private BundleCheck() {}

  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println("usage: " + USAGE);
      System.exit(2);
    }
    String master = args[0];
    Map<String, String> conf = new LinkedHashMap<>();
    Map<String, String[]> tables = new LinkedHashMap<>();
    int executors = 0;
    List<String> variants = List.of("default", "producers");
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--conf")) {
        String[] setting = args[++i].split("=", 2);
        conf.put(setting[0], setting[1]);
      } else if (args[i].equals("--variants")) {
        variants = List.of(args[++i].split(","));
      } else if (args[i].equals("--executors")) {
        executors = Integer.parseInt(args[++i]);
      } else {
        String[] table = args[i].split("\\|");
        tables.put(table[0], table);
      }
    }
    SparkSession.Builder builder =
        SparkSession.builder()
            .master(master)
            .appName("bundle-check")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1");
    conf.forEach(builder::config);
    SparkSession spark = builder.getOrCreate();
    int failures = 0;
    try {
      awaitExecutors(spark, executors);
      System.out.println(
          "BUNDLE "
              + Class.forName("dev.prefetch.spark.PrefetchDataSource")
                  .getProtectionDomain()
                  .getCodeSource()
                  .getLocation());
      for (Map.Entry<String, String[]> table : tables.entrySet()) {
        String format = table.getValue()[1];
        String path = table.getValue()[2];
        String reference = table.getValue().length > 3 ? table.getValue()[3] : path;
        for (String variant : variants) {
          String line = table.getKey() + " " + variant;
          try {
            Dataset<Row> expected = spark.read().format(format).load(reference);
            Dataset<Row> actual =
                spark.read().format("prefetch").options(VARIANTS.get(variant)).load(path);
            String result = compare(expected, actual);
            System.out.println(result.replaceFirst(" ", " " + line + " "));
            if (!result.startsWith("OK ")) {
              failures++;
            }
          } catch (Exception e) {
            System.out.println("FAIL " + line + " " + chain(e));
            failures++;
          }
        }
      }
      if (executors > 0) {
        System.out.println("EXECUTORS " + executorsReading(spark, tables));
      }
    } catch (ClassNotFoundException | InterruptedException e) {
      System.out.println("FAIL the prefetch source is not on the class path: " + e);
      failures++;
    } finally {
      spark.stop();
    }
    System.exit(failures == 0 ? 0 : 1);
  }

  /** Waits (a minute at most) until {@code count} executors have registered with the driver. */
  private static void awaitExecutors(SparkSession spark, int count) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    // The driver is listed among the executor infos, hence the + 1.
    while (count > 0
        && spark.sparkContext().statusTracker().getExecutorInfos().length < count + 1
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
  }

  /**
   * {@code OK rows=N} when both hold the same rows, duplicates counted, else {@code DIFF} and what
   * differs. One job: the rows of both, tagged +1 and -1, grouped by every column; a group whose
   * tags do not cancel is a row one side has more often than the other (grouping treats nulls, and
   * NaNs, as equal to themselves).
   */
  private static String compare(Dataset<Row> expected, Dataset<Row> actual) {
    if (!expected.schema().equals(actual.schema())) {
      return "DIFF schema "
          + actual.schema().simpleString()
          + " vs "
          + expected.schema().simpleString();
    }
    Column[] columns = new Column[expected.columns().length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = functions.col("`" + expected.columns()[i] + "`");
    }
    Dataset<Row> tagged =
        expected
            .withColumn("__side", functions.lit(1))
            .unionByName(actual.withColumn("__side", functions.lit(-1)));
    Row totals =
        tagged
            .groupBy(columns)
            .agg(
                functions.sum("__side").as("balance"),
                functions.count_if(functions.col("__side").equalTo(-1)).as("ours"))
            .agg(
                functions.sum(functions.abs(functions.col("balance"))).as("unmatched"),
                functions.sum("ours").as("rows"))
            .first();
    long rows = totals.isNullAt(1) ? 0 : totals.getLong(1);
    long unmatched = totals.isNullAt(0) ? 0 : totals.getLong(0);
    return unmatched == 0
        ? "OK rows=" + rows
        : "DIFF " + unmatched + " rows unmatched, ours " + rows;
  }

  /**
   * The ids of the executors whose JVMs read a table through the prefetch source: each task asks
   * its own JVM for its command line (a nondeterministic expression, so Spark evaluates it in the
   * tasks), which names the executor. Small splits make many tasks, so that every executor gets
   * some.
   */
  /**
   * The ids of the executors that ran the prefetch source's tasks over the first table, cut into
   * many small splits. A job of short tasks may all run on the executor whose offer came first, so
   * the query runs again (five times at most) until more than one executor took part.
   */
  private static List<String> executorsReading(SparkSession spark, Map<String, String[]> tables) {
    String path = tables.values().iterator().next()[2];
    spark.conf().set("spark.sql.files.maxPartitionBytes", "16k");
    spark.conf().set("spark.sql.files.openCostInBytes", "0");
    TreeSet<String> ids = new TreeSet<>();
    for (int attempt = 0; attempt < 5 && ids.size() < 2; attempt++) {
      List<Row> rows =
          spark
              .read()
              .format("prefetch")
              .option("prefetch.min-read-bytes", "0")
              .load(path)
              .selectExpr(
                  "substring_index(substring_index("
                      + "reflect('java.lang.System', 'getProperty', 'sun.java.command'),"
                      + " '--executor-id ', -1), ' ', 1) AS executor")
              .distinct()
              .collectAsList();
      for (Row row : rows) {
        ids.add(row.getString(0));
      }
    }
    return new ArrayList<>(ids);
  }

  private static String chain(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append(" <- ");
    }
    return text.toString().replace('\n', ' ');
  }
}
