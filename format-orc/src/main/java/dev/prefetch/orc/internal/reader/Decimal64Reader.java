package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * A {@code decimal} column of at most 18 digits stored as Decimal64 (files of orc-core's version
 * UNSTABLE_PRE_2_0): the unscaled values at the column's scale as signed integer RLE v2 in DATA,
 * into a long-backed {@link DecimalVector} as they are.
 */
final class Decimal64Reader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder data;

  Decimal64Reader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = IntegerDecoder.create(owned(data), true, true);
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
    return DecimalVector.ofLongs(type, rows, values, nulls);
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
