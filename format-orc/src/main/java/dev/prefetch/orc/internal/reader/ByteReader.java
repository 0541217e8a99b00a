package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.ByteRleDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/** A {@code tinyint} column: byte RLE in DATA, into a {@link ByteVector}. */
final class ByteReader extends ColumnReader {

  private final DataType type;
  private final ByteRleDecoder data;

  ByteReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data = new ByteRleDecoder(owned(data));
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    byte[] values = pool.values(byte[].class, rows);
    data.decode(values, 0, count);
    if (nulls != null) {
      Spread.bytes(values, nulls, rows, count);
    }
    return new ByteVector(type, rows, values, nulls);
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
