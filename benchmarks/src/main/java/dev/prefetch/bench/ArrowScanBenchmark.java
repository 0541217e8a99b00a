package dev.prefetch.bench;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.arrow.ArrowBatches;
import dev.prefetch.arrow.ArrowMapping;
import dev.prefetch.arrow.BatchConverter;
import dev.prefetch.arrow.PrefetchArrowReader;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProcessCpu;
import dev.prefetch.testkit.scan.ProgressBar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * What the Arrow conversion adds to a scan: the 4,000,000-row Parquet scan table, every column,
 * with 2 producers, read as batches alone ({@code scan}: each batch taken and released, as an
 * engine does once it has consumed the rows) and as Arrow ({@code arrow}: a {@code
 * PrefetchArrowReader}, which fills its reusable root from each batch in bulk, then releases the
 * batch). Both run in one JMH run, one after the other, with the warm-ups of {@link ScanBenchmark}
 * (the same JIT story holds).
 *
 * <p>Before any timing, the trial's setup checks the scan reads the library reader's checksum, and
 * that a conversion of every batch carries its rows, its null counts and the sum of its {@code id}
 * column into Arrow.
 *
 * <p>On a machine shared with other work, wall time follows the load; so each trial also prints the
 * median process CPU time of its measured scans (every thread, as the OS accounts it), which the
 * load moves far less. {@link ArrowScanInterleaved} runs the two scans in turns in one JVM, so that
 * both see the same load.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ArrowScanBenchmark}.
 */
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms3g",
      "-Xmx3g",
      "-XX:+AlwaysPreTouch",
      "--add-opens=java.base/java.nio=ALL-UNNAMED"
    })
public class ArrowScanBenchmark extends SingleShotScans {

  @Param({"2"})
  public int producers;

  private ReadContext context;
  private BufferAllocator allocator;
  private org.apache.hadoop.fs.Path path;
  private ReadOptions options;
  private long expectedRows;
  private long cpuAtStart;
  private final List<Double> cpuSeconds = new ArrayList<>();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path file = BenchData.scanFile("parquet");
    Configuration conf = BenchData.configuration("local");
    path = BenchData.path("local", file);
    context = ReadContext.builder().configuration(conf).build();
    allocator = new RootAllocator();
    options = ReadOptions.builder().parallelism(producers).build();
    String expected = BenchData.expectedChecksum("parquet");
    Contender.Scan scan =
        Contender.ours("prefetch-" + producers, options, context, null)
            .scan(path, "parquet", false, ProgressBar.none());
    if (!scan.checksum().equals(expected)) {
      throw new IllegalStateException(
          "the scan read checksum "
              + scan.checksum()
              + " from "
              + file
              + ", the library reader "
              + expected);
    }
    expectedRows = scan.rows();
    HeapProfiler.rowsPerOperation(ArrowScanBenchmark.class, expectedRows);
    checkConversion();
  }

  /** Every batch's rows, null counts and id sum arrive in Arrow. */
  private void checkConversion() throws IOException {
    try (BatchReader reader = Readers.open(DataFile.of(path), options, context);
        BatchConverter converter =
            ArrowBatches.converter(ArrowMapping.of(reader.schema()), allocator)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        VectorSchemaRoot root = converter.convert(batch);
        if (root.getRowCount() != batch.rowCount()) {
          throw new IllegalStateException(
              "Arrow batch of " + root.getRowCount() + " rows for " + batch.rowCount());
        }
        for (int c = 0; c < batch.columns().size(); c++) {
          ColumnVector v = batch.column(c);
          int nulls = 0;
          for (int i = 0; v.mayHaveNulls() && i < batch.rowCount(); i++) {
            nulls += v.isNull(i) ? 1 : 0;
          }
          if (root.getVector(c).getNullCount() != nulls) {
            throw new IllegalStateException(
                "column "
                    + c
                    + ": "
                    + root.getVector(c).getNullCount()
                    + " nulls in Arrow, "
                    + nulls
                    + " in the batch");
          }
        }
        long ours = 0;
        long arrow = 0;
        LongVector ids = (LongVector) batch.column("id");
        BigIntVector arrowIds = (BigIntVector) root.getVector("id");
        for (int i = 0; i < batch.rowCount(); i++) {
          ours += ids.get(i);
          arrow += arrowIds.get(i);
        }
        if (ours != arrow) {
          throw new IllegalStateException("id sums differ: " + ours + " vs " + arrow);
        }
        batch.release();
      }
    }
  }

  @Setup(Level.Iteration)
  public void startCpu() {
    cpuAtStart = ProcessCpu.nanos();
  }

  @TearDown(Level.Iteration)
  public void endCpu(IterationParams iteration) {
    long end = ProcessCpu.nanos();
    if (iteration.getType() == IterationType.MEASUREMENT && cpuAtStart >= 0 && end >= 0) {
      cpuSeconds.add((end - cpuAtStart) / 1e9);
    }
  }

  /** The scan alone: every batch taken and released. */
  @Benchmark
  public long scan() throws IOException {
    return checkRows(scanRows(path, options, context));
  }

  /** The scan to Arrow: every batch converted into the reader's root. */
  @Benchmark
  public long arrow() throws IOException {
    return checkRows(arrowRows(path, options, context, allocator));
  }

  /** Takes and releases every batch of {@code path}; the rows read. */
  static long scanRows(org.apache.hadoop.fs.Path path, ReadOptions options, ReadContext context)
      throws IOException {
    long rows = 0;
    try (BatchReader reader = Readers.open(DataFile.of(path), options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
        batch.release();
      }
    }
    return rows;
  }

  /** Converts every batch of {@code path} into the Arrow reader's root; the rows read. */
  static long arrowRows(
      org.apache.hadoop.fs.Path path,
      ReadOptions options,
      ReadContext context,
      BufferAllocator allocator)
      throws IOException {
    long rows = 0;
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(DataFile.of(path), options, context, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        rows += root.getRowCount();
      }
    }
    return rows;
  }

  private long checkRows(long rows) {
    if (rows != expectedRows) {
      throw new IllegalStateException("read " + rows + " rows, expected " + expectedRows);
    }
    return rows;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (!cpuSeconds.isEmpty()) {
      List<Double> sorted = new ArrayList<>(cpuSeconds);
      Collections.sort(sorted);
      System.out.printf(
          Locale.ROOT,
          "%nprocess CPU per scan: median %.3f s of %s%n",
          sorted.get(sorted.size() / 2),
          cpuSeconds);
    }
    long held = allocator.getAllocatedMemory();
    allocator.close();
    context.close();
    if (held != 0) {
      throw new IllegalStateException(held + " bytes of Arrow memory not released");
    }
  }
}
