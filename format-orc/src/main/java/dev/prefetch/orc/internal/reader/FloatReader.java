package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.FloatDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/** A {@code float} column: 4-byte IEEE 754 values in DATA, into a {@link FloatVector}. */
final class FloatReader extends ColumnReader {

  private final DataType type;
  private final FloatDecoder data;

  FloatReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = new FloatDecoder(owned(data));
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    float[] values = pool.values(float[].class, rows);
    data.decode(values, 0, count);
    if (nulls != null) {
      Spread.floats(values, nulls, rows, count);
    }
    return new FloatVector(type, rows, values, nulls);
  }

  @Override
  protected void skipValues(long values) throws IOException {
    data.skip(values);
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    data.seek(positions);
  }
}
