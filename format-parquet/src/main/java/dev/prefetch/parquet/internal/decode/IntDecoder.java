package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.IntVector;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** INT32 columns (plain, INT(32, signed), INT(16, unsigned), DATE) into {@link IntVector}. */
public final class IntDecoder extends BaseDecoder {

  private int[] values = new int[0];

  public IntDecoder(DataType type) {
    super(type);
  }

  @Override
  public boolean supportsBulk() {
    return true;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    int[] out = pages.arrays().ints(rows);
    boolean[] nullMask = pages.readInts(out, rows);
    return new IntVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = reader.getInteger();
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
    int[] out = values;
    values = new int[0];
    return new IntVector(type(), n, out, takeNulls());
  }
}
