package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.orc.internal.stream.StringDirectDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * A directly encoded {@code string}, {@code char}, {@code varchar} or {@code binary} column (and
 * the geometry types, as their bytes): a batch's lengths decoded and checked first, then its bytes
 * copied in one call into the batch's data array, into a {@link BinaryVector}. {@code char} and
 * {@code varchar} values are then cut as orc-core cuts them ({@link CharLimit}).
 */
final class BinaryDirectReader extends ColumnReader {

  private final DataType type;
  private final StringDirectDecoder data;
  private final CharLimit limit;
  private final long maxBatchBytes;
  private int[] lengths = new int[0];

  BinaryDirectReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      StreamInput lengths,
      boolean rleV2,
      CharLimit limit,
      long maxBatchBytes,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.data =
        new StringDirectDecoder(owned(data), IntegerDecoder.create(owned(lengths), false, rleV2));
    this.limit = limit;
    this.maxBatchBytes = maxBatchBytes;
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    if (lengths.length < count) {
      lengths = new int[Math.max(count, lengths.length * 2)];
    }
    long total = data.decodeLengths(lengths, 0, count); // no more than the stream can hold
    Lengths.check(total, count, ReadSettings.MAX_ARRAY_LENGTH, maxBatchBytes, "bytes", where);
    byte[] bytes = pool.binaryData((int) total);
    data.readBytes(bytes, 0, (int) total);
    if (limit != null) {
      limit.adjust(bytes, lengths, count);
    }
    int[] offsets = pool.binaryOffsets(rows + 1);
    Spread.offsets(lengths, nulls, rows, offsets);
    return new BinaryVector(type, rows, bytes, offsets, nulls);
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
