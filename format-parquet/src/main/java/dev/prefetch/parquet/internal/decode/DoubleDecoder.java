package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** DOUBLE columns into {@link DoubleVector}. */
public final class DoubleDecoder extends BaseDecoder {

  private double[] values = new double[0];

  public DoubleDecoder(DataType type) {
    super(type);
  }

  @Override
  public boolean supportsBulk() {
    return true;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    double[] out = pages.arrays().doubles(rows);
    boolean[] nullMask = pages.readDoubles(out, rows);
    return new DoubleVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = reader.getDouble();
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
    double[] out = values;
    values = new double[0];
    return new DoubleVector(type(), n, out, takeNulls());
  }
}
