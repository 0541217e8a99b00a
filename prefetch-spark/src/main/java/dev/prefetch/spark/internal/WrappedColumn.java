package dev.prefetch.spark.internal;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/** Nulls and the unsupported accessors, shared by every wrapper. */
abstract class WrappedColumn extends ColumnVector {
  private final dev.prefetch.batch.ColumnVector source;
  private int numNulls = -1;

  WrappedColumn(DataType type, dev.prefetch.batch.ColumnVector source) {
    super(type);
    this.source = source;
  }

  @Override
  public final boolean hasNull() {
    return source.mayHaveNulls() && numNulls() > 0;
  }

  @Override
  public final int numNulls() {
    if (numNulls < 0) {
      boolean[] mask = source.nullMask();
      int count = 0;
      if (mask != null) {
        for (int i = 0, n = source.size(); i < n; i++) {
          if (mask[i]) {
            count++;
          }
        }
      }
      numNulls = count;
    }
    return numNulls;
  }

  @Override
  public final boolean isNullAt(int rowId) {
    return source.isNull(rowId);
  }

  @Override
  public void close() {
    // The wrapped arrays belong to our batch; the partition reader releases it.
  }

  private UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(
        what + " on a " + dataType().simpleString() + " column");
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported("getBoolean");
  }

  @Override
  public byte getByte(int rowId) {
    throw unsupported("getByte");
  }

  @Override
  public short getShort(int rowId) {
    throw unsupported("getShort");
  }

  @Override
  public int getInt(int rowId) {
    throw unsupported("getInt");
  }

  @Override
  public long getLong(int rowId) {
    throw unsupported("getLong");
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported("getFloat");
  }

  @Override
  public double getDouble(int rowId) {
    throw unsupported("getDouble");
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported("getArray");
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported("getMap");
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported("getDecimal");
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported("getUTF8String");
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported("getBinary");
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported("getChild");
  }
}
