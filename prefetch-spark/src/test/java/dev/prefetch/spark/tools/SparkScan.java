package dev.prefetch.spark.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.spi.FileFormats;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import scala.Function1;

/**
 * {@code bin/spark-scan}: the same aggregate over every column, in one local SparkSession, with
 * Spark's built-in reader ({@code spark.read.parquet} / {@code spark.read.orc}, vectorized) and
 * with {@code format("prefetch")}, one JSON line per contender and input.
 *
 * <p>The aggregate is the row count and, per column, {@code sum} for integers up to 32 bits and
 * decimals, {@code sum(hash(column))} for every other type (a sum of doubles depends on the order
 * partial sums meet, a hash sum does not). Spark refuses to hash a map, so a map is hashed as its
 * entries sorted by key and value, at any depth (in arrays, structs and other maps' values). Exit
 * status: 0 when both contenders agree on every input, 1 when they disagree, 2 on a usage error, 3
 * when a read fails.
 *
 * <p>{@code --remote} reads through the simulated object store (20 ms before the first byte of
 * every request, 64 MiB/s per stream; {@link SimulatedFileSystem}), registered as the Hadoop scheme
 * {@code simulated:}, for both contenders. Each contender runs once to warm up, then {@code
 * --repeat} times, each a newly planned query; {@code seconds} is the median.
 */
@Command(
    name = "spark-scan",
    mixinStandardHelpOptions = true,
    description = "Aggregate every column with Spark's reader and with format(\"prefetch\").")
public final class SparkScan implements Callable<Integer> {

  /** The remote model of the benchmarks: first-byte latency and per-stream bandwidth. */
  static final long REMOTE_LATENCY_MS = 20;

  static final double REMOTE_BANDWIDTH_MBPS = 64;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE_OR_DIR",
      description = "Parquet or ORC files or directories (one format per argument)")
  List<Path> inputs;

  @Option(names = "--master", defaultValue = "local[2]", description = "Spark master")
  String master;

  @Option(names = "--repeat", defaultValue = "1", description = "timed runs per contender")
  int repeat;

  @Option(names = "--remote", description = "read through the simulated object store")
  boolean remote;

  @Option(names = "--conf", description = "a Spark setting key=value (repeatable)")
  Map<String, String> conf = new LinkedHashMap<>();

  @Option(names = "--only", description = "run one contender: spark or prefetch")
  String only;

  public static void main(String[] args) {
    System.exit(new CommandLine(new SparkScan()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (repeat < 1) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--repeat must be at least 1: " + repeat);
    }
    SparkSession.Builder builder =
        SparkSession.builder()
            .master(master)
            .appName("spark-scan")
            .config("spark.ui.enabled", "false");
    for (Map.Entry<String, String> entry : conf.entrySet()) {
      builder.config(entry.getKey(), entry.getValue());
    }
    SparkSession spark = builder.getOrCreate();
    try {
      SimulatedFileSystem.configure(
          spark.sparkContext().hadoopConfiguration(), REMOTE_LATENCY_MS, REMOTE_BANDWIDTH_MBPS);
      return compare(spark, inputs, remote, only, repeat, 1);
    } finally {
      spark.stop();
    }
  }

  /**
   * Runs both contenders (or {@code only} one) on every input in {@code spark}, whose Hadoop
   * configuration has the simulated scheme registered, and prints one JSON line each.
   *
   * @return the exit status: 0 agree, 1 disagree, 3 read error
   */
  public static int compare(
      SparkSession spark, List<Path> inputs, boolean remote, String only, int repeat, int warmups)
      throws Exception {
    return compare(spark, inputs, remote, only, repeat, warmups, Map.of());
  }

  /**
   * As {@link #compare(SparkSession, List, boolean, String, int, int)}; when {@code tuned} has
   * session settings, the prefetch source runs a second time with them (line field {@code
   * settings}).
   */
  static int compare(
      SparkSession spark,
      List<Path> inputs,
      boolean remote,
      String only,
      int repeat,
      int warmups,
      Map<String, String> tuned)
      throws Exception {
    ObjectMapper json = new ObjectMapper();
    int status = 0;
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    String master = spark.sparkContext().master();
    for (Path input : inputs) {
      String format;
      String path;
      try {
        format = formatOf(input, hadoop);
        path =
            remote
                ? SimulatedFileSystem.pathOf(input).toString()
                : input.toAbsolutePath().toUri().toString();
      } catch (Exception e) {
        System.err.println("spark-scan: cannot read " + input + ": " + e.getMessage());
        return 3;
      }
      Map<String, Object> first = null;
      List<String> sources =
          new ArrayList<>(only == null ? List.of("spark", "prefetch") : List.of(only));
      if (!tuned.isEmpty() && sources.contains("prefetch")) {
        sources.add("prefetch-tuned");
      }
      for (String source : sources) {
        String reader = source.startsWith("prefetch") ? "prefetch" : format;
        boolean tune = source.equals("prefetch-tuned");
        if (tune) {
          tuned.forEach((key, value) -> spark.conf().set(key, value));
        }
        Result result;
        try {
          result = run(() -> spark.read().format(reader).load(path), repeat, warmups);
        } catch (Exception e) {
          System.err.println("spark-scan: " + source + " failed to read " + input + ": " + e);
          return 3;
        } finally {
          if (tune) {
            tuned.keySet().forEach(key -> spark.conf().unset(key));
          }
        }
        ObjectNode line = json.createObjectNode();
        line.put("source", tune ? "prefetch" : source);
        if (tune) {
          line.putPOJO("settings", tuned);
        }
        line.put("input", input.toString());
        line.put("format", format);
        line.put("storage", remote ? "remote" : "local");
        line.put("master", master);
        line.put("rows", result.rows);
        ObjectNode columns = line.putObject("columns");
        result.columns.forEach(columns::put);
        line.put("seconds", result.median());
        ArrayNode each = line.putArray("secondsEach");
        result.seconds.forEach(each::add);
        System.out.println(json.writeValueAsString(line));
        System.out.flush();
        Map<String, Object> values = new LinkedHashMap<>(result.columns);
        values.put("rows", result.rows);
        if (first == null) {
          first = values;
        } else if (!first.equals(values)) {
          System.err.println("spark-scan: the contenders disagree on " + input);
          status = 1;
        }
      }
    }
    return status;
  }

  /**
   * The same aggregate over the file's rows already held in Spark's in-memory columnar cache, read
   * once with Spark's own reader: close to the time no reader can go below, since the aggregate's
   * own work remains (the cache's scan is cheap, not free). Its ratio to a reader's time is about
   * the most a faster reader can gain on this query. Prints one JSON line with {@code source}
   * "memory".
   */
  static void inMemoryFloor(SparkSession spark, Path input, int repeat, int warmups)
      throws Exception {
    String format = formatOf(input, spark.sparkContext().hadoopConfiguration());
    Dataset<Row> cached =
        spark.read().format(format).load(input.toAbsolutePath().toUri().toString()).cache();
    try {
      cached.count();
      Result result = run(() -> cached, repeat, warmups);
      ObjectMapper json = new ObjectMapper();
      ObjectNode line = json.createObjectNode();
      line.put("source", "memory");
      line.put("input", input.toString());
      line.put("format", format);
      line.put("master", spark.sparkContext().master());
      line.put("rows", result.rows);
      line.put("seconds", result.median());
      ArrayNode each = line.putArray("secondsEach");
      result.seconds.forEach(each::add);
      System.out.println(json.writeValueAsString(line));
      System.out.flush();
    } finally {
      cached.unpersist(true);
    }
  }

  private static String formatOf(Path input, Configuration conf) throws Exception {
    Path file = input;
    if (Files.isDirectory(input)) {
      try (var files = Files.walk(input)) {
        file =
            files
                .filter(Files::isRegularFile)
                .filter(
                    f ->
                        !f.getFileName().toString().startsWith(".")
                            && !f.getFileName().toString().startsWith("_"))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no files in " + input));
      }
    }
    return FileFormats.of(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), conf)
        .name();
  }

  /**
   * The aggregate, {@code warmups} times to warm up and then {@code repeat} times. Each run plans a
   * new query: running one plan again would reuse its shuffle output (Spark skips the map stage, so
   * the files would not be read again).
   */
  private static Result run(Supplier<Dataset<Row>> source, int repeat, int warmups) {
    Row row = null;
    for (int i = 0; i < warmups; i++) {
      row = aggregate(source.get()).collectAsList().get(0);
    }
    Result result = new Result();
    for (int i = 0; i < repeat; i++) {
      Dataset<Row> query = aggregate(source.get());
      long start = System.nanoTime();
      Row next = query.collectAsList().get(0);
      result.seconds.add((System.nanoTime() - start) / 1e9);
      if (row != null && !row.equals(next)) {
        throw new IllegalStateException(
            "two runs of one contender disagree: " + row + " vs " + next);
      }
      row = next;
    }
    result.rows = row.getLong(0);
    for (int i = 1; i < row.length(); i++) {
      result.columns.put(
          row.schema().fields()[i].name(), row.isNullAt(i) ? "null" : row.get(i).toString());
    }
    return result;
  }

  /** The row count and, per column, a sum or a hash sum (see the class comment). */
  private static Dataset<Row> aggregate(Dataset<Row> data) {
    List<Column> aggregates = new ArrayList<>();
    for (StructField field : data.schema().fields()) {
      Column column = data.col("`" + field.name() + "`");
      boolean summable =
          field.dataType() instanceof IntegerType
              || field.dataType() instanceof ShortType
              || field.dataType() instanceof ByteType
              || field.dataType() instanceof DecimalType;
      aggregates.add(
          (summable
                  ? functions.sum(column)
                  : functions.sum(functions.hash(hashable(column, field.dataType())).cast("long")))
              .as(field.name()));
    }
    return data.agg(
        functions.count(functions.lit(1)).as("rows"), aggregates.toArray(new Column[0]));
  }

  /**
   * {@code column} with every map in it, at any depth, replaced by its entries as an array of (key,
   * value) structs sorted by key and then value, which Spark hashes (it refuses maps) and which
   * does not depend on the order a writer put the entries in; other values are unchanged.
   */
  public static Column hashable(Column column, DataType type) {
    if (!hasMap(type)) {
      return column;
    }
    if (type instanceof MapType map) {
      Function1<Column, Column> entry =
          e ->
              functions.struct(
                  hashable(e.getField("key"), map.keyType()).as("key"),
                  hashable(e.getField("value"), map.valueType()).as("value"));
      return functions.array_sort(functions.transform(functions.map_entries(column), entry));
    }
    if (type instanceof ArrayType array) {
      Function1<Column, Column> element = e -> hashable(e, array.elementType());
      return functions.transform(column, element);
    }
    StructType struct = (StructType) type;
    Column[] fields = new Column[struct.fields().length];
    for (int i = 0; i < fields.length; i++) {
      StructField field = struct.fields()[i];
      fields[i] = hashable(column.getField(field.name()), field.dataType()).as(field.name());
    }
    // A null struct stays null (a struct of null fields would hash as a value).
    return functions.when(column.isNull(), functions.lit(null)).otherwise(functions.struct(fields));
  }

  private static boolean hasMap(DataType type) {
    if (type instanceof MapType) {
      return true;
    }
    if (type instanceof ArrayType array) {
      return hasMap(array.elementType());
    }
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        if (hasMap(field.dataType())) {
          return true;
        }
      }
    }
    return false;
  }

  private static final class Result {
    long rows;
    final Map<String, String> columns = new LinkedHashMap<>();
    final List<Double> seconds = new ArrayList<>();

    double median() {
      double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(sorted);
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }
}
