package dev.prefetch.bench;

import dev.prefetch.examples.gen.Tables;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The native reference: DuckDB (in process, through JDBC) scanning the same Parquet file with 1 and
 * 2 threads, aggregating a hash of every column so that every value is decoded: {@code SELECT
 * count(*), sum(hash(id)), sum(hash(qty)), ... FROM read_parquet(...)}.
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar DuckDbBenchmark}. The setup
 * checks that DuckDB counts every row of the file before any timing.
 */
public class DuckDbBenchmark extends SingleShotScans {

  @Param({"1", "2"})
  public int threads;

  private Connection connection;
  private String query;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    Path file = BenchData.scanFile("parquet");
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = connection.createStatement()) {
      s.execute("SET threads = " + threads);
    }
    StringBuilder sql = new StringBuilder("SELECT count(*)");
    for (String column : Tables.SCAN_COLUMNS) {
      sql.append(", sum(hash(\"").append(column).append("\"))");
    }
    sql.append(" FROM read_parquet('").append(file.toString().replace("'", "''")).append("')");
    query = sql.toString();
    long rows = Long.parseLong(scan().split(",", 2)[0]);
    if (rows != BenchData.rows()) {
      throw new IllegalStateException(
          "DuckDB counted " + rows + " rows in " + file + ", expected " + BenchData.rows());
    }
  }

  /** The count and the per-column hash sums, as text. */
  @Benchmark
  public String scan() throws SQLException {
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

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    connection.close();
  }
}
