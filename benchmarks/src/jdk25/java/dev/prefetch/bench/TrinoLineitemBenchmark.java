package dev.prefetch.bench;

import dev.prefetch.bench.trino.TrinoContender;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Trino's readers (Java 25) on the files of {@link LineitemBenchmark}: its Parquet reader on the
 * DuckDB-written Parquet file and its ORC reader on the orc-core-written ORC file, with 2 threads
 * (the file's row groups or stripes shared by two readers, as {@link TrinoScanBenchmark} explains),
 * over every column and each column group apart (integers, decimals, dates, strings, comment):
 * Trino's readers decode only the columns asked for, as ours and DuckDB do.
 *
 * <p>Consumer and check as {@link TrinoScanBenchmark}'s: the sums of the selected values are timed;
 * the checksum of the same columns is checked against the format library's first.
 *
 * <p>Compiled only under a JDK 25 (the benchmarks' jdk25 profile). Run alone: {@code bin/bench
 * TrinoLineitemBenchmark}.
 */
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms3g",
      "-Xmx3g",
      "-XX:+AlwaysPreTouch",
      "--add-modules",
      "jdk.incubator.vector"
    })
public class TrinoLineitemBenchmark extends SingleShotScans {

  /** As {@link LineitemBenchmark#table}: {@code FORMAT-GROUP}. */
  @Param({
    "parquet-all",
    "parquet-integers",
    "parquet-decimals",
    "parquet-dates",
    "parquet-strings",
    "parquet-comment",
    "orc-all",
    "orc-integers",
    "orc-decimals",
    "orc-dates",
    "orc-strings",
    "orc-comment"
  })
  public String table;

  @Param({"2"})
  public int threads;

  private TrinoContender trino;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    HeapProfiler.rowsPerOperation(TrinoLineitemBenchmark.class, LineitemData.rows());
    int dash = table.indexOf('-');
    String format = table.substring(0, dash);
    List<String> columns = LineitemData.columns(table.substring(dash + 1));
    Path file = format.equals("parquet") ? LineitemData.parquetFile() : LineitemData.orcFile();
    String expected =
        Contender.library(new Configuration(), columns, null, null, null)
            .scan(new org.apache.hadoop.fs.Path(file.toUri()), format, false, ProgressBar.none())
            .checksum();
    trino = new TrinoContender(format, file, "local", columns, threads);
    try {
      trino.check(expected, columns.size(), LineitemData.rows());
    } catch (IOException | RuntimeException e) {
      trino.close();
      throw e;
    }
  }

  /** The sums of the selected values, 16 hex digits. */
  @Benchmark
  public String scan() throws IOException {
    return trino.scan();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    trino.close();
  }
}
