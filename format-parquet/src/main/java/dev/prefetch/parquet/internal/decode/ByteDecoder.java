package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** INT32 columns annotated INT(8, signed) into {@link ByteVector}. */
public final class ByteDecoder extends BaseDecoder {

  private byte[] values = new byte[0];

  public ByteDecoder(DataType type) {
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
    byte[] out = pages.arrays().bytes(rows);
    for (int i = 0; i < rows; i++) {
      out[i] = (byte) physical[i];
    }
    return new ByteVector(type(), rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = (byte) reader.getInteger();
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
    byte[] out = values;
    values = new byte[0];
    return new ByteVector(type(), n, out, takeNulls());
  }
}
