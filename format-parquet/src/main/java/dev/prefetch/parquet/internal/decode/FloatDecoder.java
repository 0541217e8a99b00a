package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** FLOAT columns into {@link FloatVector}. */
public final class FloatDecoder extends BaseDecoder {

  private float[] values = new float[0];

  public FloatDecoder(DataType type) {
    super(type);
  }

  @Override
  public boolean supportsBulk() {
    return true;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    float[] out = pages.arrays().floats(rows);
    boolean[] nullMask = pages.readFloats(out, rows);
    return new FloatVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = reader.getFloat();
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
    float[] out = values;
    values = new float[0];
    return new FloatVector(type(), n, out, takeNulls());
  }
}
