package dev.prefetch.bench;

import dev.prefetch.bench.trino.TrinoContender;
import dev.prefetch.testkit.gen.Tables;
import java.io.IOException;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Trino's readers (Java 25) on the scan table, the same files as {@link ScanBenchmark}: its Parquet
 * reader ({@code trino.TrinoParquetScan}) on {@code scan.parquet} and its ORC reader ({@code
 * trino.orc.TrinoOrcScan}) on {@code scan.orc}, every column, with 1 and 2 threads, on local files
 * and on the remote model (a data source that charges each request 20 ms and 64 MiB/s, {@code
 * trino.TrinoStorage}).
 *
 * <p>Trino's file readers are single-threaded: an engine reads a file faster only by reading its
 * splits at once. With 2 threads, the file's row groups (stripes) are shared by two readers, each
 * taking the next split not yet taken ({@link dev.prefetch.bench.trino.TrinoSplits}), as Trino's
 * workers take splits, so that 2 threads here compare with our 2 producers and DuckDB's 2 threads.
 * A file of few splits shares them unevenly, as it does in the engine.
 *
 * <p>Consumer: each value is added to {@link dev.prefetch.testkit.scan.ValueSums} (a sum per column, a
 * hash of each string's bytes) from the raw arrays of Trino's blocks, as our readers' trials add
 * theirs. Before any timing the setup checks the canonical checksum against the format library's,
 * and that the threads read the same sums ({@link TrinoContender#check}).
 *
 * <p>Compiled only under a JDK 25 (the benchmarks' jdk25 profile). Run alone: {@code bin/bench
 * TrinoScanBenchmark}.
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
public class TrinoScanBenchmark extends SingleShotScans {

  @Param({"parquet", "orc"})
  public String format;

  @Param({"1", "2"})
  public int threads;

  @Param({"local", "remote"})
  public String storage;

  private TrinoContender trino;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    HeapProfiler.rowsPerOperation(TrinoScanBenchmark.class, BenchData.rows());
    trino = new TrinoContender(format, BenchData.scanFile(format), storage, List.of(), threads);
    try {
      trino.check(BenchData.expectedChecksum(format), Tables.SCAN_COLUMNS.length, BenchData.rows());
    } catch (IOException | RuntimeException e) {
      trino.close();
      throw e;
    }
  }

  /** The sums of every value, 16 hex digits. */
  @Benchmark
  public String scan() throws IOException {
    return trino.scan();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    trino.close();
  }
}
