package dev.prefetch.spark.internal;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.ColumnVectorUtils;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * One split as Spark {@link ColumnarBatch}es: each of our batches is wrapped (not copied) by {@link
 * SparkColumns}, followed by the split's partition values as constant columns.
 *
 * <p>Lifecycle: Spark's task thread is the only caller. A batch handed out by {@link #get()} stays
 * valid until the next {@link #next()} or {@link #close()}, which release it so that the format can
 * reuse its arrays (Spark's contract for columnar readers: the consumer is done with a batch when
 * it asks for the next). {@code close()} releases the current batch and closes the reader, which
 * stops its producers. After each call into the reader, the bytes it fetched so far go to the
 * task's input metrics ({@link TaskInputBytes}).
 */
final class PrefetchPartitionReader implements PartitionReader<ColumnarBatch> {

  private final DataFile file;
  private final BatchReader reader;
  private final CountingCache cache;
  private final StructType readDataSchema;

  /**
   * Per column of {@code readDataSchema}: the reader's column that holds it, or -1 when the file
   * lacks it (then {@link #absentColumns} holds its nulls).
   */
  private final int[] sources;

  private final ConstantColumnVector[] absentColumns;
  private final ConstantColumnVector[] partitionColumns;
  private final TaskTotals totals;
  private final TaskInputBytes inputBytes;
  private RecordBatch current;
  private ColumnarBatch batch;
  private boolean closed;

  private PrefetchPartitionReader(
      DataFile file,
      BatchReader reader,
      CountingCache cache,
      StructType readDataSchema,
      int[] sources,
      ConstantColumnVector[] absentColumns,
      ConstantColumnVector[] partitionColumns,
      TaskInputBytes inputBytes) {
    this.file = file;
    this.reader = reader;
    this.cache = cache;
    this.readDataSchema = readDataSchema;
    this.sources = sources;
    this.absentColumns = absentColumns;
    this.partitionColumns = partitionColumns;
    this.inputBytes = inputBytes;
    this.totals = TaskTotals.current();
    totals.opened(this);
  }

  /**
   * Opens {@code file} with the read's properties, the projection of {@code readDataSchema} and the
   * format's predicate (null for none), on the executor's shared pool and cache. A column of {@code
   * readDataSchema} that the file lacks (a table of files that gained columns over time, read with
   * {@code mergeSchema}, or a schema the user gave) reads as nulls, as with Spark's own readers.
   */
  static PrefetchPartitionReader open(
      DataFile file,
      ReadOptions.Builder options,
      Object predicate,
      StructType dataSchema,
      StructType readDataSchema,
      StructType readPartitionSchema,
      InternalRow partitionValues,
      Configuration conf,
      ExecutorResources resources)
      throws IOException {
    List<String> wanted = new ArrayList<>();
    for (StructField field : readDataSchema.fields()) {
      wanted.add(field.name());
    }
    CountingCache cache = resources.cache() == null ? null : new CountingCache(resources.cache());
    ReadContext context =
        ReadContext.builder()
            .configuration(conf)
            .executor(resources.executor())
            .cache(cache)
            .build();
    TaskInputBytes inputBytes = new TaskInputBytes();
    BatchReader reader;
    // Only rows are counted (or only partition columns read): one column gives the counts.
    List<String> read = wanted.isEmpty() ? List.of(dataSchema.fields()[0].name()) : wanted;
    long before = inputBytes.before();
    try {
      try {
        reader = openFiltered(file, options.columns(read), predicate, context);
      } catch (IllegalArgumentException e) {
        List<String> present = columnsOf(file, context);
        if (present.containsAll(read)) {
          throw e;
        }
        read = new ArrayList<>(wanted);
        read.retainAll(present);
        if (read.isEmpty()) {
          read = List.of(present.get(0));
        }
        reader = openFiltered(file, options.columns(read), predicate, context);
      }
    } finally {
      inputBytes.after(before);
    }
    try {
      int[] sources = new int[wanted.size()];
      ConstantColumnVector[] absentColumns = new ConstantColumnVector[wanted.size()];
      int capacity = options.build().batchSize();
      for (int i = 0; i < sources.length; i++) {
        sources[i] = read.indexOf(wanted.get(i));
        if (sources[i] < 0) {
          absentColumns[i] =
              new ConstantColumnVector(capacity, readDataSchema.fields()[i].dataType());
          absentColumns[i].setNull();
        }
      }
      check(file, reader.schema(), readDataSchema, sources, read.size());
      ConstantColumnVector[] partitionColumns =
          new ConstantColumnVector[readPartitionSchema.fields().length];
      for (int i = 0; i < partitionColumns.length; i++) {
        partitionColumns[i] =
            new ConstantColumnVector(capacity, readPartitionSchema.fields()[i].dataType());
        ColumnVectorUtils.populate(partitionColumns[i], partitionValues, i);
      }
      PrefetchPartitionReader opened =
          new PrefetchPartitionReader(
              file,
              reader,
              cache,
              readDataSchema,
              sources,
              absentColumns,
              partitionColumns,
              inputBytes);
      inputBytes.report(reader.metrics().bytesRead());
      return opened;
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** Opens {@code file} with {@code predicate}, or without it where the file refuses it. */
  private static BatchReader openFiltered(
      DataFile file, ReadOptions.Builder options, Object predicate, ReadContext context)
      throws IOException {
    try {
      return Readers.open(file, options.filter(predicate).build(), context);
    } catch (IllegalArgumentException e) {
      if (predicate == null) {
        throw e;
      }
      // The predicate is typed from Spark's schema; a file whose physical type differs (an
      // unsigned INT32 read as a Spark long, say), or that lacks a filtered column, rejects it.
      // Pruning is optional (Spark filters the rows), so this file is read without it.
      return Readers.open(file, options.filter(null).build(), context);
    }
  }

  /**
   * The top-level column names of {@code file}, from its footer (the executor's cache holds it).
   */
  private static List<String> columnsOf(DataFile file, ReadContext context) throws IOException {
    try (BatchReader whole =
        Readers.open(file, ReadOptions.builder().prefetchEnabled(false).build(), context)) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < whole.schema().size(); i++) {
        names.add(whole.schema().field(i).name());
      }
      return names;
    }
  }

  private static void check(
      DataFile file, Schema schema, StructType readDataSchema, int[] sources, int read)
      throws IOException {
    if (schema.size() != read) {
      throw new IOException(
          "Cannot read "
              + file
              + ": asked for "
              + read
              + " columns, the reader gives "
              + schema.size()
              + " ("
              + schema
              + ")");
    }
    StructField[] fields = readDataSchema.fields();
    for (int i = 0; i < fields.length; i++) {
      if (sources[i] < 0) {
        continue;
      }
      Field field = schema.field(sources[i]);
      if (!SparkColumns.convertible(field.type(), fields[i].dataType())) {
        throw new IOException(
            "Cannot read "
                + file
                + ": column '"
                + field.name()
                + "' is "
                + field.type()
                + " in the file, which does not read as the table's "
                + fields[i].dataType().simpleString());
      }
    }
  }

  @Override
  public boolean next() throws IOException {
    releaseCurrent();
    long before = inputBytes.before();
    RecordBatch next;
    try {
      next = reader.next();
    } finally {
      inputBytes.after(before);
    }
    inputBytes.report(reader.metrics().bytesRead());
    if (next == null) {
      return false;
    }
    current = next;
    int data = sources.length;
    ColumnVector[] columns = new ColumnVector[data + partitionColumns.length];
    for (int i = 0; i < data; i++) {
      columns[i] =
          sources[i] < 0
              ? absentColumns[i]
              : SparkColumns.wrap(next.column(sources[i]), readDataSchema.fields()[i].dataType());
    }
    System.arraycopy(partitionColumns, 0, columns, data, partitionColumns.length);
    batch = new ColumnarBatch(columns, next.rowCount());
    return true;
  }

  @Override
  public ColumnarBatch get() {
    if (batch == null) {
      throw new IllegalStateException("no current batch of " + file);
    }
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return totals.with(closed ? null : reader.metrics(), closed ? null : cache);
  }

  private void releaseCurrent() {
    batch = null;
    if (current != null) {
      current.release();
      current = null;
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    releaseCurrent();
    long before = inputBytes.before();
    try {
      reader.close();
    } finally {
      inputBytes.after(before);
      ReaderMetrics metrics = reader.metrics();
      inputBytes.report(metrics.bytesRead());
      totals.closed(this, metrics, cache);
      for (ConstantColumnVector column : partitionColumns) {
        column.close();
      }
      for (ConstantColumnVector column : absentColumns) {
        if (column != null) {
          column.close();
        }
      }
    }
  }
}
