package dev.prefetch.bench;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProgressBar;
import dev.prefetch.testkit.scan.ScanConsumer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Files from other writers: the lineitem-shaped table ({@link LineitemData}) as DuckDB writes it to
 * Parquet, scanned by our reader with 2 producers and by DuckDB with 2 threads, over every column
 * and over each column group apart (integers, decimals, dates, the four dictionary-encoded strings,
 * the comment), and as orc-core writes it to ORC, scanned by our reader with 2 producers and by
 * orc-core's vectorized reader, over every column and each group too. Every contender decodes every
 * selected value into the lightest aggregate that touches each: ours and orc-core into {@link
 * dev.prefetch.testkit.scan.ValueSums} (a sum per column, a hash of each string's bytes; orc-core
 * through {@link LibrarySums}), DuckDB into {@code sum(a)} per number or date and {@code
 * sum(hash(s))} per string ({@link DuckDbScan}).
 *
 * <p>Run alone: {@code bin/bench LineitemBenchmark}. Before any timing, our reader's checksum is
 * checked against the format library's (parquet-hadoop, orc-core) over the same columns, and
 * DuckDB's row count against the table's.
 */
public class LineitemBenchmark extends SingleShotScans {

  /**
   * {@code parquet-GROUP}: DuckDB's Parquet; {@code orc-GROUP}: orc-core's ORC; GROUP {@code all}
   * or one of {@link LineitemData#GROUPS}.
   */
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

  /** {@code prefetch-2}: ours; {@code native}: DuckDB with 2 threads, or orc-core on ORC. */
  @Param({"prefetch-2", "native"})
  public String reader;

  private String format;
  private org.apache.hadoop.fs.Path path;
  private ReadContext context;
  private Contender contender;
  private DuckDbScan duckDb;

  @Setup(Level.Trial)
  public void setUp() throws IOException, SQLException {
    HeapProfiler.rowsPerOperation(LineitemBenchmark.class, LineitemData.rows());
    int dash = table.indexOf('-');
    format = table.substring(0, dash);
    List<String> columns = LineitemData.columns(table.substring(dash + 1));
    Path file = format.equals("parquet") ? LineitemData.parquetFile() : LineitemData.orcFile();
    path = new org.apache.hadoop.fs.Path(file.toUri());
    Configuration conf = new Configuration();
    context = ReadContext.builder().configuration(conf).build();
    Contender library = Contender.library(conf, columns, null, null, null);
    if (reader.equals("native") && format.equals("parquet")) {
      duckDb = new DuckDbScan(List.of(file), columns, 2, LineitemData.rows());
      return;
    }
    if (reader.equals("native")) {
      contender = LibrarySums.contender(conf, columns);
      return;
    }
    if (!reader.equals("prefetch-2")) {
      throw new IllegalArgumentException("unknown reader " + reader);
    }
    ReadOptions options = ReadOptions.builder().parallelism(2).columns(columns).build();
    String expected = library.scan(path, format, false, ProgressBar.none()).checksum();
    String ours =
        Contender.ours(reader, options, context, null)
            .scan(path, format, false, ProgressBar.none())
            .checksum();
    if (!ours.equals(expected)) {
      throw new IllegalStateException(
          reader + " read checksum " + ours + " from " + file + ", the library reader " + expected);
    }
    contender = Contender.ours(reader, options, context, null, ScanConsumer.SUMS);
  }

  /**
   * The sums of the selected values ({@link dev.prefetch.testkit.scan.ValueSums}: ours, orc-core),
   * or DuckDB's count and per-column sums.
   */
  @Benchmark
  public String scan() throws IOException, SQLException {
    return duckDb != null
        ? duckDb.scan()
        : contender.scan(path, format, false, ProgressBar.none()).checksum();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    context.close();
    if (duckDb != null) {
      duckDb.close();
    }
  }
}
