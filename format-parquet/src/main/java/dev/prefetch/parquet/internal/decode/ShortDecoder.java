package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** INT32 columns annotated INT(16, signed) or INT(8, unsigned) into {@link ShortVector}. */
public final class ShortDecoder extends BaseDecoder {

  private short[] values = new short[0];

  public ShortDecoder(DataType type) {
    super(type);
  }

  @Override
  public boolean supportsBulk() {
    return true;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    int[] physical = scratch(rows);
    boolean[] nullMask = pages.readInts(physical, rows);
    short[] out = pages.arrays().shorts(rows);
    for (int i = 0; i < rows; i++) {
      out[i] = (short) physical[i];
    }
    return new ShortVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = (short) reader.getInteger();
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
    short[] out = values;
    values = new short[0];
    return new ShortVector(type(), n, out, takeNulls());
  }
}
