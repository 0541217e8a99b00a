package dev.prefetch.bench;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.scan.ScanConsumer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Full-scan time of every column of the 12-column, 4,000,000-row scan table on local files: our
 * single reader, our prefetching reader with 1, 2 and 4 producers, and the format library's own
 * fastest reader (parquet-hadoop column readers with a full decode; orc-core vectorized batches).
 * The remote model (20 ms per request, 64 MiB/s per stream) is {@link RemoteScanBenchmark}'s, with
 * 8 producers too: on a 2-core machine, 8 local producers measure nothing that 4 do not. Any reader
 * and storage can still be run here ({@code -p reader=prefetch-8 -p storage=remote}).
 *
 * <p>Sixteen warm-up scans and eight measured: a multi-threaded reader keeps getting faster over a
 * fork's first ten to fifteen scans while the JIT compiles, deoptimizes and recompiles its decoders
 * on two busy cores (one fork of 1 producer: 0.55-0.59 s over its first four warm-ups, 0.50-0.54 s
 * after twenty), where a library reader is flat after two. With eight warm-ups, two forks of the
 * same code measured 0.58 and 0.63 s. A local scan is short, so the longer warm-up costs little;
 * {@link RemoteScanBenchmark} explains the remote trials' warm-up.
 *
 * <p>The consumer: each timed scan feeds every value to {@link dev.prefetch.testkit.scan.ValueSums}
 * (a sum per column, a hash of each string's bytes: the least work that still touches every value,
 * as DuckDB's {@code sum(a), sum(hash(s))} in {@link DuckDbBenchmark}), every contender alike, the
 * library readers through {@link LibrarySums}. The canonical checksum costs more per value than
 * such an aggregate, so it is the correctness check, not the timed consumer.
 *
 * <p>Run the whole suite with {@code bin/bench} (see {@code benchmarks/README.md}); this class
 * alone: {@code java -jar benchmarks/target/benchmarks.jar ScanBenchmark}. Before any timing, the
 * trial's setup checks that the contender reads the same checksum as the library reader (a scan
 * with the checksum as its consumer).
 */
public class ScanBenchmark extends SingleShotScans {

  @Param({"parquet", "orc"})
  public String format;

  @Param({"local"})
  public String storage;

  @Param({"single", "prefetch-1", "prefetch-2", "prefetch-4", "library"})
  public String reader;

  /** The contender as timed: with the light consumer. */
  private Contender contender;

  private ReadContext context;
  private org.apache.hadoop.fs.Path path;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    HeapProfiler.rowsPerOperation(ScanBenchmark.class, BenchData.rows());
    Path file = BenchData.scanFile(format);
    Configuration conf = BenchData.configuration(storage);
    path = BenchData.path(storage, file);
    context = ReadContext.builder().configuration(conf).build();
    String expected = BenchData.expectedChecksum(format);
    Contender.Scan scan =
        contender(reader, conf, context, ScanConsumer.CHECKSUM)
            .scan(path, format, false, ProgressBar.none());
    if (!scan.checksum().equals(expected)) {
      throw new IllegalStateException(
          reader
              + " read checksum "
              + scan.checksum()
              + " from "
              + file
              + ", the library reader "
              + expected);
    }
    contender = contender(reader, conf, context, ScanConsumer.SUMS);
  }

  /**
   * A reader of the trial feeding {@code consumer}: the checksum for the setup's check, the sums
   * for the timed scans (the library readers' through {@link LibrarySums}).
   */
  static Contender contender(
      String reader, Configuration conf, ReadContext context, ScanConsumer consumer) {
    if (reader.equals("library")) {
      return consumer == ScanConsumer.SUMS
          ? LibrarySums.contender(conf, List.of())
          : Contender.library(conf, List.of(), null, null, null);
    }
    if (reader.equals("single")) {
      return Contender.ours(
          reader, ReadOptions.builder().prefetchEnabled(false).build(), context, null, consumer);
    }
    if (reader.startsWith("prefetch-")) {
      int producers = Integer.parseInt(reader.substring("prefetch-".length()));
      return Contender.ours(
          reader, ReadOptions.builder().parallelism(producers).build(), context, null, consumer);
    }
    throw new IllegalArgumentException("unknown reader " + reader);
  }

  /** The sums of every value ({@link dev.prefetch.testkit.scan.ValueSums}), 16 hex digits. */
  @Benchmark
  public String scan() throws IOException {
    return contender.scan(path, format, false, ProgressBar.none()).checksum();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    context.close();
  }
}
