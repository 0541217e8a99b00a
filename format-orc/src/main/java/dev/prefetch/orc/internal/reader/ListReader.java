package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.ListVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * An {@code array} column: each list's element count in LENGTH, the elements in the child column,
 * read for the whole batch at once, into a {@link ListVector}. The batch's element count is checked
 * before the child reads it: against one array (more: corrupt) and against the read's budget (more,
 * in a valid file: too large for one batch).
 */
final class ListReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder lengths;
  private final ColumnReader elements;
  private final long maxElements;
  private int[] counts = new int[0];

  ListReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput lengths,
      boolean rleV2,
      ColumnReader elements,
      long maxBatchBytes,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.lengths = IntegerDecoder.create(owned(lengths), false, rleV2);
    this.elements = elements;
    this.maxElements = maxBatchBytes / ReadSettings.MIN_ELEMENT_BYTES;
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    if (counts.length < count) {
      counts = new int[Math.max(count, counts.length * 2)];
    }
    long total = lengths.decodeLengths(counts, 0, count);
    Lengths.check(total, count, ReadSettings.MAX_ARRAY_LENGTH, maxElements, "elements", where);
    int[] offsets = new int[rows + 1];
    Spread.offsets(counts, nulls, rows, offsets);
    ColumnVector children = elements.read((int) total, null);
    return new ListVector(type, rows, offsets, children, nulls);
  }

  @Override
  protected void skipValues(long values) throws IOException {
    elements.skip(lengths.skipLengths(values));
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    lengths.seek(positions);
  }

  @Override
  public void seek(RowIndexes indexes, int stride) throws IOException {
    super.seek(indexes, stride);
    elements.seek(indexes, stride);
  }

  @Override
  public void close() {
    super.close();
    elements.close();
  }
}
