package dev.prefetch.bench;

import dev.hardwood.HardwoodContext;
import dev.hardwood.InputFile;
import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.reader.Validity;
import dev.hardwood.schema.ColumnProjection;
import dev.hardwood.schema.ColumnSchema;
import dev.prefetch.batch.Checksum;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Hardwood (Java 21+) scanning the same Parquet file with the same thread counts as our
 * prefetching reader, through its batch column readers, every value of every column fed to the
 * same {@link Checksum} our readers produce. Local files, and the remote model through an
 * {@link InputFile} that charges every range request the model's latency and bandwidth.
 *
 * <p>Compiled only under a JDK 21+ (the benchmarks' jdk21 profile). Run alone:
 * {@code java -jar benchmarks/target/benchmarks.jar HardwoodBenchmark}. The setup checks the
 * checksum against parquet-hadoop's before any timing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch", "--add-modules",
    "jdk.incubator.vector"})
public class HardwoodBenchmark {

  @Param({"1", "2", "4", "8"})
  public int threads;

  @Param({"local", "remote"})
  public String storage;

  private Path file;
  private HardwoodContext context;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    file = BenchData.scanFile("parquet");
    BenchData.configuration(storage);
    context = HardwoodContext.create(threads);
    String expected = BenchData.expectedChecksum("parquet");
    String actual = scan();
    if (!actual.equals(expected)) {
      throw new IllegalStateException("Hardwood read checksum " + actual + " from " + file
          + ", parquet-hadoop " + expected);
    }
  }

  private InputFile input() {
    InputFile local = InputFile.of(file);
    return storage.equals("remote")
        ? new SimulatedInputFile(local, BenchData.REMOTE_LATENCY_MS, BenchData.REMOTE_BANDWIDTH_MBPS)
        : local;
  }

  @Benchmark
  public String scan() throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(input(), context);
         ColumnReaders columns = reader.columnReaders(ColumnProjection.all())) {
      int count = columns.getColumnCount();
      Checksum checksum = new Checksum(count);
      while (columns.nextBatch()) {
        int rows = columns.getRecordCount();
        for (int c = 0; c < count; c++) {
          feed(columns.getColumnReader(c), c, rows, checksum);
        }
        checksum.addRows(rows);
      }
      return checksum.value();
    }
  }

  /** Feeds one batch of a flat column in the checksum's canonical form. */
  private static void feed(ColumnReader column, int c, int rows, Checksum checksum) {
    ColumnSchema schema = column.getColumnSchema();
    Validity validity = column.getLeafValidity();
    boolean nulls = validity != null && validity.hasNulls();
    switch (schema.type()) {
      case INT64 -> {
        long[] v = column.getLongs();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addLong(c, v[i]);
          }
        }
      }
      case INT32 -> {
        int[] v = column.getInts();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addLong(c, v[i]);
          }
        }
      }
      case DOUBLE -> {
        double[] v = column.getDoubles();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addDouble(c, v[i]);
          }
        }
      }
      case FLOAT -> {
        float[] v = column.getFloats();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addDouble(c, v[i]);
          }
        }
      }
      case BOOLEAN -> {
        boolean[] v = column.getBooleans();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addLong(c, v[i] ? 1 : 0);
          }
        }
      }
      case BYTE_ARRAY -> {
        byte[] data = column.getBinaryValues();
        int[] offsets = column.getBinaryOffsets();
        for (int i = 0; i < rows; i++) {
          if (nulls && validity.isNull(i)) {
            checksum.addNull(c);
          } else {
            checksum.addBytes(c, data, offsets[i], offsets[i + 1] - offsets[i]);
          }
        }
      }
      default -> throw new IllegalStateException("column " + schema.name() + " of type "
          + schema.type() + " is not part of the benchmark table");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    context.close();
  }
}
