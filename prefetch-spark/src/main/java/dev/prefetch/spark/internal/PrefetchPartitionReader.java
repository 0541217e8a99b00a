package dev.prefetch.spark.internal;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
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
 * One split, or several read as one ordered stream, as Spark {@link ColumnarBatch}es: each of our
 * batches is wrapped (not copied) by {@link SparkColumns}, followed by the partition values of the
 * batch's file as constant columns (a batch knows its file, {@link RecordBatch#file()}; the
 * constant columns are made anew when the file changes).
 *
 * <p>Lifecycle: Spark's task thread is the only caller. A batch handed out by {@link #get()} stays
 * valid until the next {@link #next()} or {@link #close()}, which release it so that the format can
 * reuse its arrays (Spark's contract for columnar readers: the consumer is done with a batch when
 * it asks for the next). {@code close()} releases the current batch and closes the reader, which
 * stops its producers. After each call into the reader, the bytes it fetched so far go to the
 * task's input metrics ({@link TaskInputBytes}).
 */
final class PrefetchPartitionReader implements PartitionReader<ColumnarBatch> {

  /** The splits, in read order. */
  private final List<DataFile> files;

  /** Per split: its partition values. */
  private final List<InternalRow> partitionValues;

  private final BatchReader reader;
  private final CountingCache cache;
  private final StructType readDataSchema;

  /**
   * Per column of {@code readDataSchema}: the reader's column that holds it, or -1 when the file
   * lacks it (then {@link #absentColumns} holds its nulls).
   */
  private final int[] sources;

  private final ConstantColumnVector[] absentColumns;

  /** Columns the reader was asked for (each split's batches must hold as many). */
  private final int readColumns;

  private final StructType readPartitionSchema;
  private final int capacity;

  /** The partition values of {@link #fileIndex}'s split, made when its first batch arrives. */
  private ConstantColumnVector[] partitionColumns = new ConstantColumnVector[0];

  /** The index in {@link #files} of the current batch's split; -1 before the first batch. */
  private int fileIndex = -1;

  private final TaskTotals totals;
  private final TaskInputBytes inputBytes;
  private RecordBatch current;
  private ColumnarBatch batch;
  private boolean closed;

  private PrefetchPartitionReader(
      List<DataFile> files,
      List<InternalRow> partitionValues,
      BatchReader reader,
      CountingCache cache,
      StructType readDataSchema,
      int[] sources,
      ConstantColumnVector[] absentColumns,
      int readColumns,
      StructType readPartitionSchema,
      int capacity,
      TaskInputBytes inputBytes) {
    this.files = files;
    this.partitionValues = partitionValues;
    this.reader = reader;
    this.cache = cache;
    this.readDataSchema = readDataSchema;
    this.sources = sources;
    this.absentColumns = absentColumns;
    this.readColumns = readColumns;
    this.readPartitionSchema = readPartitionSchema;
    this.capacity = capacity;
    this.inputBytes = inputBytes;
    this.totals = TaskTotals.current();
    totals.opened(this);
  }

  /**
   * Opens {@code files} (one split, or several read as one stream) with the read's properties, the
   * projection of {@code readDataSchema} and the format's predicate (null for none), on the
   * executor's shared pool and cache. A column of {@code readDataSchema} that one split lacks (a
   * table of files that gained columns over time, read with {@code mergeSchema}, or a schema the
   * user gave) reads as nulls, as with Spark's own readers; a stream cannot leave out a column for
   * some of its files only, so over several splits a missing column fails with the {@link
   * IllegalArgumentException} of the split that lacks it (at open for the first, from {@link
   * #next()} as a {@link ReadException} for a later one), and the caller reads that split alone.
   *
   * @param partitionValues per split, its partition values
   */
  static PrefetchPartitionReader open(
      List<DataFile> files,
      List<InternalRow> partitionValues,
      ReadOptions.Builder options,
      Object predicate,
      StructType dataSchema,
      StructType readDataSchema,
      StructType readPartitionSchema,
      Configuration conf,
      ExecutorResources resources)
      throws IOException {
    if (files.isEmpty() || files.size() != partitionValues.size()) {
      throw new IllegalArgumentException(
          files.size() + " splits with " + partitionValues.size() + " partition values");
    }
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
        reader = openFiltered(files, options.columns(read), predicate, context);
      } catch (IllegalArgumentException e) {
        if (files.size() > 1) {
          throw e;
        }
        DataFile file = files.get(0);
        List<String> present = columnsOf(file, context);
        if (present.containsAll(read)) {
          throw e;
        }
        read = new ArrayList<>(wanted);
        read.retainAll(present);
        if (read.isEmpty()) {
          read = List.of(present.get(0));
        }
        reader = openFiltered(files, options.columns(read), predicate, context);
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
      check(files.get(0), reader.schema(), readDataSchema, sources, read.size());
      PrefetchPartitionReader opened =
          new PrefetchPartitionReader(
              List.copyOf(files),
              List.copyOf(partitionValues),
              reader,
              cache,
              readDataSchema,
              sources,
              absentColumns,
              read.size(),
              readPartitionSchema,
              capacity,
              inputBytes);
      inputBytes.report(reader.metrics().bytesRead());
      return opened;
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /**
   * Opens {@code files} with {@code predicate}, or without it where the first file refuses it (a
   * later file that refuses it fails from {@code next()}).
   */
  private static BatchReader openFiltered(
      List<DataFile> files, ReadOptions.Builder options, Object predicate, ReadContext context)
      throws IOException {
    try {
      return Readers.open(files, options.filter(predicate).build(), context);
    } catch (IllegalArgumentException e) {
      if (predicate == null) {
        throw e;
      }
      // The predicate is typed from Spark's schema; a file whose physical type differs (an
      // unsigned INT32 read as a Spark long, say), or that lacks a filtered column, rejects it.
      // Pruning is optional (Spark filters the rows), so the files are read without it.
      return Readers.open(files, options.filter(null).build(), context);
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
      throw new ReadException(
          file,
          "asked for " + read + " columns, the reader gives " + schema.size() + " (" + schema + ")",
          null);
    }
    StructField[] fields = readDataSchema.fields();
    for (int i = 0; i < fields.length; i++) {
      if (sources[i] < 0) {
        continue;
      }
      Field field = schema.field(sources[i]);
      if (!SparkColumns.convertible(field.type(), fields[i].dataType())) {
        throw new ReadException(
            file,
            "column '"
                + field.name()
                + "' is "
                + field.type()
                + " in the file, which does not read as the table's "
                + fields[i].dataType().simpleString(),
            null);
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
    int index = indexOf(next.file());
    if (index != fileIndex) {
      try {
        startFile(index, next.schema());
      } catch (IOException | RuntimeException e) {
        releaseCurrent();
        throw e;
      }
    }
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

  /**
   * The index in the reader's splits of {@code file}, the split of a batch: at or after the current
   * one, since batches come in the splits' order.
   */
  private int indexOf(DataFile file) {
    for (int i = Math.max(fileIndex, 0); i < files.size(); i++) {
      if (files.get(i).equals(file)) {
        return i;
      }
    }
    throw new IllegalStateException(
        "a batch of " + file + ", which is not among the splits left to read: " + files);
  }

  /**
   * The first batch of split {@code index} arrived (the previous split's batches are released): its
   * columns are checked against the table's and its partition values become the constant columns.
   */
  private void startFile(int index, Schema schema) throws IOException {
    DataFile file = files.get(index);
    if (index > 0) {
      check(file, schema, readDataSchema, sources, readColumns);
    }
    closePartitionColumns();
    ConstantColumnVector[] columns = new ConstantColumnVector[readPartitionSchema.fields().length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new ConstantColumnVector(capacity, readPartitionSchema.fields()[i].dataType());
      ColumnVectorUtils.populate(columns[i], partitionValues.get(index), i);
    }
    partitionColumns = columns;
    fileIndex = index;
  }

  /** The index in the reader's splits of the current batch's split; -1 before the first batch. */
  int fileIndex() {
    return fileIndex;
  }

  @Override
  public ColumnarBatch get() {
    if (batch == null) {
      throw new IllegalStateException("no current batch of " + files.get(Math.max(fileIndex, 0)));
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
      closePartitionColumns();
      for (ConstantColumnVector column : absentColumns) {
        if (column != null) {
          column.close();
        }
      }
    }
  }

  private void closePartitionColumns() {
    for (ConstantColumnVector column : partitionColumns) {
      column.close();
    }
    partitionColumns = new ConstantColumnVector[0];
  }
}
