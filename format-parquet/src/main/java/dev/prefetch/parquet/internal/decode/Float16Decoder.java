package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;

/** FIXED_LEN_BYTE_ARRAY(2) columns annotated FLOAT16, widened exactly to {@link FloatVector}. */
public final class Float16Decoder extends BaseDecoder {

  private float[] values = new float[0];

  public Float16Decoder(DataType type) {
    super(type);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = Float16.toFloat(reader.getBinary());
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
