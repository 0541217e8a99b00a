package dev.prefetch.bench;

import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The {@link ScanBenchmark} trials on the remote model (each stream is capped at 64 MiB/s and every
 * request waits 20 ms), with 8 producers too, since there more producers than cores still pay off.
 * Same setup, checksum check and scan as {@link ScanBenchmark}; twelve warm-up and four measured
 * scans. The single-stream trials wait on I/O and are flat from the first scan, but 8 producers are
 * bound by CPU on two cores and keep getting faster for ten scans or more while the JIT compiles
 * (one fork: 0.68-0.78 s over its second to sixth warm-ups, 0.62-0.69 s after six; in one process
 * of the CLI, 0.65-0.67 s over its second to fourth scans and 0.56-0.62 s from the fifth on).
 */
@Warmup(iterations = 12)
@Measurement(iterations = 4)
public class RemoteScanBenchmark extends SingleShotScans {

  @Param({"parquet", "orc"})
  public String format;

  @Param({"single", "prefetch-1", "prefetch-2", "prefetch-4", "prefetch-8", "library"})
  public String reader;

  private final ScanBenchmark trial = new ScanBenchmark();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    HeapProfiler.rowsPerOperation(RemoteScanBenchmark.class, BenchData.rows());
    trial.format = format;
    trial.storage = "remote";
    trial.reader = reader;
    trial.setUp();
  }

  @Benchmark
  public String scan() throws IOException {
    return trial.scan();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    trial.tearDown();
  }
}
