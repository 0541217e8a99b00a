package dev.prefetch.bench;

import dev.prefetch.testkit.gen.Tables;
import java.sql.SQLException;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The native reference: DuckDB (in process, through JDBC) scanning the same Parquet file with 1 and
 * 2 threads, with the lightest aggregate that still decodes every value ({@link DuckDbScan}): a sum
 * per number, date, timestamp and boolean column and a sum of hashes per string column, {@code
 * SELECT count(*), sum(id), sum(qty), ..., sum(hash(category)), ... FROM read_parquet(...)}: the
 * work per value of the JVM contenders' consumer ({@link dev.prefetch.testkit.scan.ValueSums}).
 *
 * <p>Run alone: {@code java -jar benchmarks/target/benchmarks.jar DuckDbBenchmark}. The setup
 * checks that DuckDB counts every row of the file before any timing.
 */
public class DuckDbBenchmark extends SingleShotScans {

  @Param({"1", "2"})
  public int threads;

  private DuckDbScan duckDb;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    HeapProfiler.rowsPerOperation(DuckDbBenchmark.class, BenchData.rows());
    duckDb =
        new DuckDbScan(
            List.of(BenchData.scanFile("parquet")),
            List.of(Tables.SCAN_COLUMNS),
            threads,
            BenchData.rows());
  }

  /** The count and the per-column sums, as text. */
  @Benchmark
  public String scan() throws SQLException {
    return duckDb.scan();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    duckDb.close();
  }
}
