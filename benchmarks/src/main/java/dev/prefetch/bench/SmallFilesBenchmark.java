package dev.prefetch.bench;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.examples.Contender;
import dev.prefetch.examples.gen.Tables;
import dev.prefetch.examples.internal.ProgressBar;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Full-scan time of the scan table laid out as many small Parquet files ({@link
 * BenchData#smallFiles}: 200 files of one 20,000-row row group each for 4,000,000 rows) read as one
 * ordered stream, against the same rows in one file:
 *
 * <ul>
 *   <li>{@code single}: our single reader over the files ({@code Readers.open} of the list);
 *   <li>{@code prefetch-2}: our prefetching reader with 2 producers over the files;
 *   <li>{@code one-file-prefetch-2}: our prefetching reader with 2 producers over {@code
 *       scan.parquet}, the same rows in one file;
 *   <li>{@code duckdb-2}: DuckDB with 2 threads over the files, {@code SELECT count(*),
 *       sum(hash(col))... FROM read_parquet([...])}, as {@link DuckDbBenchmark} over one file.
 * </ul>
 *
 * <p>Run alone: {@code bin/bench SmallFilesBenchmark} (or {@code java -jar
 * benchmarks/target/benchmarks.jar SmallFilesBenchmark} once {@code bin/bench --generate} made the
 * files). Before any timing, the trial's setup checks that our contenders read the checksum
 * parquet-hadoop reads from {@code scan.parquet} (the files hold the same rows in the same order),
 * and that DuckDB counts every row. Warm-up and measurement as {@link ScanBenchmark}'s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 16)
@Measurement(iterations = 8)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class SmallFilesBenchmark {

  @Param({"single", "prefetch-2", "one-file-prefetch-2", "duckdb-2"})
  public String reader;

  private List<org.apache.hadoop.fs.Path> files;
  private org.apache.hadoop.fs.Path oneFile;
  private Contender contender;
  private ReadContext context;
  private Connection connection;
  private String query;

  @Setup(Level.Trial)
  public void setUp() throws IOException, SQLException {
    List<Path> local = BenchData.smallFiles();
    if (reader.startsWith("duckdb-")) {
      setUpDuckDb(local, Integer.parseInt(reader.substring("duckdb-".length())));
      return;
    }
    files = new ArrayList<>();
    for (Path file : local) {
      files.add(new org.apache.hadoop.fs.Path(file.toUri()));
    }
    oneFile = new org.apache.hadoop.fs.Path(BenchData.scanFile("parquet").toUri());
    context = ReadContext.builder().configuration(new Configuration()).build();
    ReadOptions options =
        switch (reader) {
          case "single" -> ReadOptions.builder().prefetchEnabled(false).build();
          case "prefetch-2", "one-file-prefetch-2" -> ReadOptions.builder().parallelism(2).build();
          default -> throw new IllegalArgumentException("unknown reader " + reader);
        };
    contender = Contender.ours(reader, options, context, null);
    String expected = BenchData.expectedChecksum("parquet");
    String checksum = scan();
    if (!checksum.equals(expected)) {
      throw new IllegalStateException(
          reader
              + " read checksum "
              + checksum
              + " from "
              + (reader.startsWith("one-file") ? oneFile : files.size() + " small files")
              + ", the library reader "
              + expected
              + " from scan.parquet");
    }
  }

  private void setUpDuckDb(List<Path> local, int threads) throws IOException, SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = connection.createStatement()) {
      s.execute("SET threads = " + threads);
    }
    StringBuilder sql = new StringBuilder("SELECT count(*)");
    for (String column : Tables.SCAN_COLUMNS) {
      sql.append(", sum(hash(\"").append(column).append("\"))");
    }
    sql.append(" FROM read_parquet([");
    for (int i = 0; i < local.size(); i++) {
      sql.append(i == 0 ? "'" : ", '").append(local.get(i).toString().replace("'", "''"));
      sql.append("'");
    }
    sql.append("])");
    query = sql.toString();
    long rows = Long.parseLong(scan().split(",", 2)[0]);
    if (rows != BenchData.rows()) {
      throw new IllegalStateException(
          "DuckDB counted "
              + rows
              + " rows in "
              + local.size()
              + " small files, expected "
              + BenchData.rows());
    }
  }

  /** Our checksum of every value; for DuckDB, the count and the per-column hash sums. */
  @Benchmark
  public String scan() throws IOException, SQLException {
    if (connection != null) {
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery(query)) {
        rs.next();
        StringBuilder out = new StringBuilder();
        int columns = rs.getMetaData().getColumnCount();
        for (int c = 1; c <= columns; c++) {
          out.append(c == 1 ? "" : ",").append(rs.getString(c));
        }
        return out.toString();
      }
    }
    if (reader.startsWith("one-file")) {
      return contender.scan(oneFile, "parquet", false, ProgressBar.none()).checksum();
    }
    return contender.scanStream(files, false, ProgressBar.none()).checksum();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (context != null) {
      context.close();
    }
    if (connection != null) {
      connection.close();
    }
  }
}
