package dev.prefetch.batch;

import dev.prefetch.DataFile;
import java.util.List;
import java.util.Objects;

/**
 * A run of consecutive selected rows of one file, as one vector per projected column.
 *
 * <p>{@link #firstRow()} is the file row index of row 0. A batch never spans two read ranges, so
 * never a Parquet row group or ORC stripe boundary. Batches are immutable once built (see
 * {@link ColumnVector}) and may be handed to another thread.
 */
public final class RecordBatch {

  private final DataFile file;
  private final long firstRow;
  private final int rowCount;
  private final Schema schema;
  private final List<ColumnVector> columns;
  private final long sizeInBytes;

  public RecordBatch(DataFile file, long firstRow, int rowCount, Schema schema,
      List<ColumnVector> columns) {
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
        throw new IllegalArgumentException("vector " + i + " (" + schema.field(i).name()
            + ") has " + column.size() + " values, batch has " + rowCount + " rows");
      }
      bytes += column.sizeInBytes();
    }
    this.firstRow = firstRow;
    this.rowCount = rowCount;
    this.columns = List.copyOf(columns);
    this.sizeInBytes = bytes;
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

  public List<ColumnVector> columns() {
    return columns;
  }

  public ColumnVector column(int index) {
    return columns.get(index);
  }

  /** The vector of the top-level column {@code name}. */
  public ColumnVector column(String name) {
    int index = schema.indexOf(name);
    if (index < 0) {
      throw new IllegalArgumentException("no column '" + name + "' in " + schema);
    }
    return columns.get(index);
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
