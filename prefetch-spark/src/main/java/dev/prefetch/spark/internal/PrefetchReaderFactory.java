package dev.prefetch.spark.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.spi.FileFormats;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.FileSourceOptions;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.FilePartitionReaderFactory;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Turns each split Spark planned into a columnar reader. Made on the driver and sent to the
 * executors; everything it holds is serializable: the broadcast Hadoop configuration, the schemas,
 * the pushed Spark filters (translated per file, for that file's format) and the read properties,
 * already validated on the driver.
 *
 * <p>{@link FilePartitionReaderFactory} walks the files of a task's partition and handles {@code
 * ignoreCorruptFiles} / {@code ignoreMissingFiles}; {@link #buildColumnarReader} opens one split.
 */
final class PrefetchReaderFactory extends FilePartitionReaderFactory {

  private static final long serialVersionUID = 1L;

  private final Broadcast<SerializableConfiguration> conf;
  private final StructType dataSchema;
  private final StructType readDataSchema;
  private final StructType readPartitionSchema;
  private final Filter[] pushedFilters;
  private final HashMap<String, String> readProperties;
  private final HashMap<String, String> sourceOptions;

  PrefetchReaderFactory(
      Broadcast<SerializableConfiguration> conf,
      StructType dataSchema,
      StructType readDataSchema,
      StructType readPartitionSchema,
      Filter[] pushedFilters,
      Map<String, String> readProperties,
      Map<String, String> sourceOptions) {
    this.conf = conf;
    this.dataSchema = dataSchema;
    this.readDataSchema = readDataSchema;
    this.readPartitionSchema = readPartitionSchema;
    this.pushedFilters = pushedFilters.clone();
    this.readProperties = new HashMap<>(readProperties);
    this.sourceOptions = new HashMap<>(sourceOptions);
  }

  @Override
  public FileSourceOptions options() {
    return new FileSourceOptions(Scala.map(sourceOptions));
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  /**
   * Spark's reader over the partition's files, reporting the task's metrics: Spark's file walker
   * does not pass on its per-file readers' metrics, so the task's running totals are reported.
   */
  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    PartitionReader<ColumnarBatch> files = super.createColumnarReader(partition);
    TaskTotals totals = TaskTotals.current();
    return new PartitionReader<>() {
      @Override
      public boolean next() throws IOException {
        return files.next();
      }

      @Override
      public ColumnarBatch get() {
        return files.get();
      }

      @Override
      public CustomTaskMetric[] currentMetricsValues() {
        return totals.snapshot();
      }

      @Override
      public void close() throws IOException {
        files.close();
      }
    };
  }

  @Override
  public PartitionReader<ColumnarBatch> buildColumnarReader(PartitionedFile file) {
    Configuration hadoopConf = conf.value().value();
    Path path = new Path(file.pathUri());
    try {
      String format = FileFormats.of(path, hadoopConf).name();
      ReadOptions.Builder options = ReadOptions.builder().properties(readProperties);
      Object predicate =
          pushedFilters.length == 0
              ? null
              : format.equals("parquet")
                  ? PushedFilters.toParquet(pushedFilters, dataSchema)
                  : PushedFilters.toOrc(pushedFilters, dataSchema);
      return PrefetchPartitionReader.open(
          DataFile.split(path, file.start(), file.length()),
          options,
          predicate,
          dataSchema,
          readDataSchema,
          readPartitionSchema,
          file.partitionValues(),
          hadoopConf,
          ExecutorResources.shared());
    } catch (IOException e) {
      FileNotFoundException missing = missing(e);
      if (missing != null) {
        // Spark's file walker skips a vanished file (ignoreMissingFiles) only on this type, as
        // its own readers throw it; Java cannot declare it on this Scala method, hence the cast.
        throw Scala.<RuntimeException>sneaky(missing);
      }
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  /** A file not found behind {@code e}, as one naming the split, or null. */
  private static FileNotFoundException missing(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof FileNotFoundException) {
        FileNotFoundException named = new FileNotFoundException(e.getMessage());
        named.initCause(e);
        return named;
      }
    }
    return null;
  }

  /** Rows, for a caller that does not take batches (Spark asks for batches: see above). */
  @Override
  public PartitionReader<InternalRow> buildReader(PartitionedFile file) {
    PartitionReader<ColumnarBatch> batches = buildColumnarReader(file);
    return new RowsOfBatches(batches);
  }
}
