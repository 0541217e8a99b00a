package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.LongVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/** A {@code bigint} column: signed integer RLE in DATA, into a {@link LongVector}. */
final class LongReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder data;

  LongReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      boolean rleV2,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = IntegerDecoder.create(owned(data), true, rleV2);
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    long[] values = pool.values(long[].class, rows);
    data.decode(values, 0, count);
    if (nulls != null) {
      Spread.longs(values, nulls, rows, count);
    }
    return new LongVector(type, rows, values, nulls);
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
