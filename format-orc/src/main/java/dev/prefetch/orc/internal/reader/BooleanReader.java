package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.BooleanDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/** A {@code boolean} column: bits in DATA, into a {@link BooleanVector}. */
final class BooleanReader extends ColumnReader {

  private final DataType type;
  private final BooleanDecoder data;

  BooleanReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = new BooleanDecoder(owned(data));
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    boolean[] values = pool.values(boolean[].class, rows);
    data.decode(values, 0, count);
    if (nulls != null) {
      Spread.booleans(values, nulls, rows, count);
    }
    return new BooleanVector(type, rows, values, nulls);
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
