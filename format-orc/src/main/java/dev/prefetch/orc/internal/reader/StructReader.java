package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.StructVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code struct} column: its nulls, and each field read with them as its parent's nulls (a field
 * is null wherever its struct is, as orc-core reads it), into a {@link StructVector}.
 */
final class StructReader extends ColumnReader {

  private final DataType type;
  private final List<ColumnReader> fields;

  StructReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      List<ColumnReader> fields,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.fields = List.copyOf(fields);
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    List<ColumnVector> children = new ArrayList<>(fields.size());
    for (int f = 0; f < fields.size(); f++) {
      children.add(fields.get(f).read(rows, nulls));
    }
    return new StructVector(type, rows, children, nulls);
  }

  @Override
  protected void skipValues(long values) throws IOException {
    for (int f = 0; f < fields.size(); f++) {
      fields.get(f).skip(values);
    }
  }

  @Override
  protected void seekValues(IndexPositions positions) {
    // the struct's own stream is PRESENT only
  }

  @Override
  public void seek(RowIndexes indexes, int stride) throws IOException {
    super.seek(indexes, stride);
    for (int f = 0; f < fields.size(); f++) {
      fields.get(f).seek(indexes, stride);
    }
  }

  @Override
  public void close() {
    super.close();
    for (ColumnReader field : fields) {
      field.close();
    }
  }
}
