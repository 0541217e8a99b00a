package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** BOOLEAN columns into {@link BooleanVector}. */
public final class BooleanDecoder extends BaseDecoder {

  private boolean[] values = new boolean[0];

  public BooleanDecoder() {
    super(DataType.bool());
  }

  @Override
  public boolean supportsBulk() {
    return true;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    boolean[] out = pages.arrays().booleans(rows);
    boolean[] nullMask = pages.readBooleans(out, rows);
    return new BooleanVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = reader.getBoolean();
  }

  @Override
  int capacity() {
    return values.length;
  }

  @Override
  void growTo(int capacity) {
    values = Arrays.copyOf(values, capacity);
  }

  @Override
  public ColumnVector finish() {
    int n = size;
    boolean[] out = values;
    values = new boolean[0];
    return new BooleanVector(type(), n, out, takeNulls());
  }
}
