package dev.prefetch.batch;

import dev.prefetch.DataFile;
import dev.prefetch.internal.jfr.Events;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run of consecutive selected rows of one file, as one vector per projected column.
 *
 * <p>{@link #firstRow()} is the file row index of row 0. A batch never spans two read ranges, so
 * never a Parquet row group or ORC stripe boundary. Batches are immutable once built (see {@link
 * ColumnVector}) and may be handed to another thread.
 *
 * <p>Memory: a batch's arrays are its own, and a batch nobody refers to is garbage collected like
 * any object. A consumer that is done with a batch may instead {@link #release()} it: the reader
 * that built it then fills the same arrays for a later batch, which saves allocating and zeroing
 * them and keeps a scan's working set in the CPU caches. Releasing is optional and at most once;
 * after it, neither the batch nor any vector taken from it may be read.
 */
public final class RecordBatch {

  private final DataFile file;
  private final long firstRow;
  private final int rowCount;
  private final Schema schema;
  private final List<ColumnVector> columns;
  private final long sizeInBytes;

  /** Where {@link #release()} hands the arrays; null: nowhere (release only marks the batch). */
  private final BatchRecycler recycler;

  private final AtomicBoolean released = new AtomicBoolean();

  public RecordBatch(
      DataFile file, long firstRow, int rowCount, Schema schema, List<ColumnVector> columns) {
    this(file, firstRow, rowCount, schema, columns, null);
  }

  /**
   * A batch whose arrays go to {@code recycler} when it is released.
   *
   * @param recycler takes the vectors' arrays back on {@link #release()}, or null
   */
  public RecordBatch(
      DataFile file,
      long firstRow,
      int rowCount,
      Schema schema,
      List<ColumnVector> columns,
      BatchRecycler recycler) {
    this.file = Objects.requireNonNull(file, "file is null");
    this.schema = Objects.requireNonNull(schema, "schema is null");
    if (firstRow < 0) {
      throw new IllegalArgumentException("firstRow must not be negative: " + firstRow);
    }
    if (rowCount < 0) {
      throw new IllegalArgumentException("rowCount must not be negative: " + rowCount);
    }
    if (columns.size() != schema.size()) {
      throw new IllegalArgumentException(
          "schema has " + schema.size() + " fields but " + columns.size() + " vectors");
    }
    long bytes = 0;
    for (int i = 0; i < columns.size(); i++) {
      ColumnVector column = columns.get(i);
      if (column.size() != rowCount) {
        throw new IllegalArgumentException(
            "vector "
                + i
                + " ("
                + schema.field(i).name()
                + ") has "
                + column.size()
                + " values, batch has "
                + rowCount
                + " rows");
      }
      bytes += column.sizeInBytes();
    }
    this.firstRow = firstRow;
    this.rowCount = rowCount;
    this.columns = List.copyOf(columns);
    this.sizeInBytes = bytes;
    this.recycler = recycler;
  }

  /** The file (or split) the rows come from. */
  public DataFile file() {
    return file;
  }

  /** File row index of the batch's row 0. */
  public long firstRow() {
    return firstRow;
  }

  public int rowCount() {
    return rowCount;
  }

  public Schema schema() {
    return schema;
  }

  /** The vectors, one per projected column. */
  public List<ColumnVector> columns() {
    checkNotReleased();
    return columns;
  }

  public ColumnVector column(int index) {
    checkNotReleased();
    return columns.get(index);
  }

  /** The vector of the top-level column {@code name}. */
  public ColumnVector column(String name) {
    int index = schema.indexOf(name);
    if (index < 0) {
      throw new IllegalArgumentException("no column '" + name + "' in " + schema);
    }
    checkNotReleased();
    return columns.get(index);
  }

  /**
   * Gives this batch's arrays back to the reader that built it, to be filled again for a later
   * batch. Call it when nothing reads the batch or its vectors any more (their contents will be
   * overwritten); the batch's accessors of columns then throw, and with the release checks on (see
   * {@link ColumnVector}) so does every value accessor of its vectors. A second call does nothing.
   */
  public void release() {
    if (released.compareAndSet(false, true)) {
      Events.batchReleased(file, firstRow, rowCount, sizeInBytes, recycler != null);
      if (recycler != null) {
        recycler.recycle(columns);
      }
      if (ColumnVector.releaseChecksEnabled()) {
        // After the recycler took the arrays back: it reads them through the vectors.
        for (ColumnVector column : columns) {
          column.markReleased();
        }
      }
    }
  }

  /** Whether {@link #release()} was called. */
  public boolean isReleased() {
    return released.get();
  }

  private void checkNotReleased() {
    if (released.get()) {
      throw new IllegalStateException(this + " was released; its vectors may hold other rows");
    }
  }

  /** Approximate heap bytes of all vectors; what the runtime's memory budget counts. */
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "RecordBatch[" + file.path() + " rows " + firstRow + "+" + rowCount + "]";
  }
}
