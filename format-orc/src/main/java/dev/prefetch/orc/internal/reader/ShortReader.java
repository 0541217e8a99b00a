package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * A {@code smallint} column: signed integer RLE in DATA, each value narrowed to 16 bits as orc-core
 * narrows it, into a {@link ShortVector}.
 */
final class ShortReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder data;

  ShortReader(
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
    short[] values = pool.values(short[].class, rows);
    data.decode(values, 0, count);
    if (nulls != null) {
      Spread.shorts(values, nulls, rows, count);
    }
    return new ShortVector(type, rows, values, nulls);
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
