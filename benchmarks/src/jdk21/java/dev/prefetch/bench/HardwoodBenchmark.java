package dev.prefetch.bench;

import dev.hardwood.HardwoodContext;
import dev.hardwood.InputFile;
import dev.hardwood.reader.ColumnReader;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.reader.Validity;
import dev.hardwood.schema.ColumnProjection;
import dev.hardwood.schema.ColumnSchema;
import dev.prefetch.DataFile;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testing.Checksum;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Hardwood (Java 21+) scanning the same Parquet file with the same thread counts as our
 * prefetching reader, through its batch column readers, every value of every column fed to the
 * same consumer as ours, through the same bulk path (its arrays wrapped in our vectors without a
 * copy): {@link ValueSums} in the timed scans, the {@link Checksum} in the setup's check. Local
 * files, and the remote model through an {@link InputFile} that charges every range request the
 * model's latency and bandwidth.
 *
 * <p>Compiled only under a JDK 21+ (the benchmarks' jdk21 profile). Run alone:
 * {@code java -jar benchmarks/target/benchmarks.jar HardwoodBenchmark}. The setup checks the
 * checksum against parquet-hadoop's before any timing.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch", "--add-modules",
    "jdk.incubator.vector"})
public class HardwoodBenchmark extends SingleShotScans {

  @Param({"1", "2", "4", "8"})
  public int threads;

  @Param({"local", "remote"})
  public String storage;

  /** The file named by the stand-in batches the checksum is fed. */
  private static final DataFile BATCH_FILE = DataFile.of(Path.of("hardwood"));

  private Path file;
  private HardwoodContext context;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    HeapProfiler.rowsPerOperation(HardwoodBenchmark.class, BenchData.rows());
    file = BenchData.scanFile("parquet");
    BenchData.configuration(storage);
    context = HardwoodContext.create(threads);
    String expected = BenchData.expectedChecksum("parquet");
    String actual = read(true);
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

  /** The sums of every value ({@link ValueSums}), 16 hex digits. */
  @Benchmark
  public String scan() throws IOException {
    return read(false);
  }

  /** Reads every value into the checksum, or into the sums. */
  private String read(boolean checksum) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(input(), context);
         ColumnReaders columns = reader.columnReaders(ColumnProjection.all())) {
      int count = columns.getColumnCount();
      Checksum check = checksum ? new Checksum(count) : null;
      ValueSums sums = checksum ? null : new ValueSums(count);
      Schema schema = schema(columns);
      List<ColumnVector> vectors = new ArrayList<>(count);
      while (columns.nextBatch()) {
        int rows = columns.getRecordCount();
        vectors.clear();
        for (int c = 0; c < count; c++) {
          vectors.add(vector(columns.getColumnReader(c), rows));
        }
        RecordBatch batch = new RecordBatch(BATCH_FILE, 0, rows, schema, vectors);
        if (check != null) {
          check.add(batch);
        } else {
          sums.add(batch);
        }
      }
      return check != null ? check.value() : sums.value();
    }
  }

  /** A stand-in schema: the checksum reads vectors by their class, not by their field types. */
  private static Schema schema(ColumnReaders columns) {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < columns.getColumnCount(); c++) {
      fields.add(Field.of(columns.getColumnReader(c).getColumnSchema().name(), DataType.int64()));
    }
    return new Schema(fields);
  }

  /**
   * Hardwood's arrays of one batch of a flat column, wrapped without a copy in the vector our
   * reader would build, so that both consumers feed the checksum through the same bulk path.
   */
  private static ColumnVector vector(ColumnReader column, int rows) {
    ColumnSchema schema = column.getColumnSchema();
    boolean[] nulls = nullMask(column.getLeafValidity(), rows);
    return switch (schema.type()) {
      case INT64 -> new LongVector(DataType.int64(), rows, column.getLongs(), nulls);
      case INT32 -> new IntVector(DataType.int32(), rows, column.getInts(), nulls);
      case DOUBLE -> new DoubleVector(DataType.float64(), rows, column.getDoubles(), nulls);
      case FLOAT -> new FloatVector(DataType.float32(), rows, column.getFloats(), nulls);
      case BOOLEAN -> new BooleanVector(DataType.bool(), rows, column.getBooleans(), nulls);
      case BYTE_ARRAY -> new BinaryVector(DataType.binary(), rows, column.getBinaryValues(),
          column.getBinaryOffsets(), nulls);
      default -> throw new IllegalStateException("column " + schema.name() + " of type "
          + schema.type() + " is not part of the benchmark table");
    };
  }

  private static boolean[] nullMask(Validity validity, int rows) {
    if (validity == null || !validity.hasNulls()) {
      return null;
    }
    boolean[] nulls = new boolean[rows];
    for (int i = 0; i < rows; i++) {
      nulls[i] = validity.isNull(i);
    }
    return nulls;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    context.close();
  }
}
