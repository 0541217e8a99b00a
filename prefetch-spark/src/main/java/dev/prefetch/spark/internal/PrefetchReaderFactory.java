package dev.prefetch.spark.internal;

import dev.prefetch.ReadOptions;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FileFormats;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.FileSourceOptions;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.FilePartitionReaderFactory;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns each task's partition Spark planned into a columnar reader. Made on the driver and sent to
 * the executors; everything it holds is serializable: the broadcast Hadoop configuration, the
 * schemas, the pushed Spark filters (translated for the files' format) and the read properties,
 * already validated on the driver.
 *
 * <p>A partition of several files (Spark packs small files into one task, up to {@code
 * spark.sql.files.maxPartitionBytes}) is read as one stream ({@link FileStreamReader}), unless the
 * stream is switched off ({@link dev.prefetch.spark.PrefetchSparkOptions#STREAM_FILES}) or a pushed
 * predicate must be typed for a format that the files' names do not all share. Otherwise {@link
 * FilePartitionReaderFactory} walks the files one by one, handling {@code ignoreCorruptFiles} /
 * {@code ignoreMissingFiles}, and {@link #buildColumnarReader} opens each.
 */
final class PrefetchReaderFactory extends FilePartitionReaderFactory {

  private static final long serialVersionUID = 1L;

  private static final Logger LOG = LoggerFactory.getLogger(PrefetchReaderFactory.class);

  private final Broadcast<SerializableConfiguration> conf;
  private final StructType dataSchema;
  private final StructType readDataSchema;
  private final StructType readPartitionSchema;
  private final Filter[] pushedFilters;
  private final HashMap<String, String> readProperties;
  private final HashMap<String, String> sourceOptions;
  private final boolean streamFiles;

  PrefetchReaderFactory(
      Broadcast<SerializableConfiguration> conf,
      StructType dataSchema,
      StructType readDataSchema,
      StructType readPartitionSchema,
      Filter[] pushedFilters,
      Map<String, String> readProperties,
      Map<String, String> sourceOptions,
      boolean streamFiles) {
    this.conf = conf;
    this.dataSchema = dataSchema;
    this.readDataSchema = readDataSchema;
    this.readPartitionSchema = readPartitionSchema;
    this.pushedFilters = pushedFilters.clone();
    this.readProperties = new HashMap<>(readProperties);
    this.sourceOptions = new HashMap<>(sourceOptions);
    this.streamFiles = streamFiles;
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
   * The reader over the partition's files, one stream or Spark's walker over one reader per file,
   * reporting the task's metrics: Spark's file walker does not pass on its per-file readers'
   * metrics, and a stream may be followed by another, so the task's running totals are reported.
   */
  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    PartitionedFile[] parts = ((FilePartition) partition).files();
    PartitionReader<ColumnarBatch> stream = parts.length > 1 && streamFiles ? stream(parts) : null;
    PartitionReader<ColumnarBatch> files =
        stream != null ? stream : super.createColumnarReader(partition);
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

  /**
   * The partition's files as one stream, or null where they must be read one by one: with a pushed
   * predicate, which is typed for one format, when the files' names do not all name one format.
   * Without one, the stream reads files of any format.
   */
  private FileStreamReader stream(PartitionedFile[] files) {
    Object predicate = null;
    if (pushedFilters.length > 0) {
      String format = formatByName(files);
      if (format == null) {
        LOG.debug("Reading {} files one by one: their names do not name one format", files.length);
        return null;
      }
      predicate = predicate(format);
    }
    Object filter = predicate;
    Configuration hadoopConf = conf.value().value();
    return new FileStreamReader(
        List.of(files),
        (splits, partitionValues) ->
            PrefetchPartitionReader.open(
                splits,
                partitionValues,
                ReadOptions.builder().properties(readProperties),
                filter,
                dataSchema,
                readDataSchema,
                readPartitionSchema,
                hadoopConf,
                ExecutorResources.shared()),
        this::buildColumnarReader,
        options());
  }

  /** The format every file's name names, or null when they name several or one names none. */
  private static String formatByName(PartitionedFile[] files) {
    FileFormat common = null;
    for (PartitionedFile file : files) {
      String name = new Path(file.pathUri()).getName();
      FileFormat format = null;
      for (FileFormat candidate : FileFormats.all()) {
        if (candidate.matchesFileName(name)) {
          format = candidate;
          break;
        }
      }
      if (format == null || (common != null && format != common)) {
        return null;
      }
      common = format;
    }
    return common.name();
  }

  /** The pushed filters as {@code format}'s predicate, or null when none was pushed. */
  private Object predicate(String format) {
    if (pushedFilters.length == 0) {
      return null;
    }
    return format.equals("parquet")
        ? PushedFilters.toParquet(pushedFilters, dataSchema)
        : PushedFilters.toOrc(pushedFilters, dataSchema);
  }

  @Override
  public PartitionReader<ColumnarBatch> buildColumnarReader(PartitionedFile file) {
    Configuration hadoopConf = conf.value().value();
    Path path = new Path(file.pathUri());
    try {
      String format = FileFormats.of(path, hadoopConf).name();
      return PrefetchPartitionReader.open(
          List.of(FileStreamReader.splitOf(file)),
          List.of(file.partitionValues()),
          ReadOptions.builder().properties(readProperties),
          predicate(format),
          dataSchema,
          readDataSchema,
          readPartitionSchema,
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
  static FileNotFoundException missing(Throwable e) {
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
