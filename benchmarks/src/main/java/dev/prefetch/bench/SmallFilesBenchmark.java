package dev.prefetch.bench;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.testkit.gen.Tables;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.scan.ScanConsumer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Full-scan time of the scan table laid out as many small Parquet files ({@link
 * BenchData#smallFiles}: 200 files written by DuckDB, of one 20,000-row row group each, for
 * 4,000,000 rows) read as one ordered stream, against the same rows in one file:
 *
 * <ul>
 *   <li>{@code single}: our single reader over the files ({@code Readers.open} of the list);
 *   <li>{@code prefetch-2}: our prefetching reader with 2 producers over the files;
 *   <li>{@code one-file-prefetch-2}: our prefetching reader with 2 producers over {@code
 *       scan.parquet}, the same rows in one file;
 *   <li>{@code duckdb-2}: DuckDB with 2 threads over the files, {@code SELECT count(*), sum(a),
 *       sum(hash(s))... FROM read_parquet([...])}, as {@link DuckDbBenchmark} over one file;
 *   <li>{@code remote-prefetch-8} and {@code remote-one-file-prefetch-8}: the files and the one
 *       file through the remote model ({@link RemoteScanBenchmark}'s), 8 producers.
 * </ul>
 *
 * <p>Run alone: {@code bin/bench SmallFilesBenchmark} (or {@code java -jar
 * benchmarks/target/benchmarks.jar SmallFilesBenchmark} once {@code bin/bench --generate} made the
 * files). Before any timing, the trial's setup checks that our contenders read the checksum
 * parquet-hadoop reads from {@code scan.parquet} (the files hold the same rows in the same order),
 * and that DuckDB counts every row. Warm-up and measurement as {@link ScanBenchmark}'s.
 */
public class SmallFilesBenchmark extends SingleShotScans {

  @Param({
    "single",
    "prefetch-2",
    "one-file-prefetch-2",
    "duckdb-2",
    "remote-prefetch-8",
    "remote-one-file-prefetch-8"
  })
  public String reader;

  private List<org.apache.hadoop.fs.Path> files;
  private org.apache.hadoop.fs.Path oneFile;
  private Contender contender;
  private ReadContext context;
  private DuckDbScan duckDb;

  @Setup(Level.Trial)
  public void setUp() throws IOException, SQLException {
    HeapProfiler.rowsPerOperation(SmallFilesBenchmark.class, BenchData.rows());
    List<Path> local = BenchData.smallFiles();
    if (reader.startsWith("duckdb-")) {
      int threads = Integer.parseInt(reader.substring("duckdb-".length()));
      duckDb = new DuckDbScan(local, List.of(Tables.SCAN_COLUMNS), threads, BenchData.rows());
      return;
    }
    String storage = reader.startsWith("remote-") ? "remote" : "local";
    files = new ArrayList<>();
    for (Path file : local) {
      files.add(BenchData.path(storage, file));
    }
    oneFile = BenchData.path(storage, BenchData.scanFile("parquet"));
    context = ReadContext.builder().configuration(BenchData.configuration(storage)).build();
    ReadOptions options =
        switch (reader) {
          case "single" -> ReadOptions.builder().prefetchEnabled(false).build();
          case "prefetch-2", "one-file-prefetch-2" -> ReadOptions.builder().parallelism(2).build();
          case "remote-prefetch-8", "remote-one-file-prefetch-8" ->
              ReadOptions.builder().parallelism(8).build();
          default -> throw new IllegalArgumentException("unknown reader " + reader);
        };
    contender = Contender.ours(reader, options, context, null);
    String expected = BenchData.expectedChecksum("parquet");
    String checksum = scan();
    // timed with the light consumer, checked with the checksum (see ScanBenchmark)
    contender = Contender.ours(reader, options, context, null, ScanConsumer.SUMS);
    if (!checksum.equals(expected)) {
      throw new IllegalStateException(
          reader
              + " read checksum "
              + checksum
              + " from "
              + (reader.contains("one-file") ? oneFile : files.size() + " small files")
              + ", the library reader "
              + expected
              + " from scan.parquet");
    }
  }

  /**
   * Our sums of every value ({@link dev.prefetch.testkit.scan.ValueSums}; the checksum in the
   * setup's check); for DuckDB, the count and the per-column sums.
   */
  @Benchmark
  public String scan() throws IOException, SQLException {
    if (duckDb != null) {
      return duckDb.scan();
    }
    if (reader.contains("one-file")) {
      return contender.scan(oneFile, "parquet", false, ProgressBar.none()).checksum();
    }
    return contender.scanStream(files, false, ProgressBar.none()).checksum();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    if (context != null) {
      context.close();
    }
    if (duckDb != null) {
      duckDb.close();
    }
  }
}
