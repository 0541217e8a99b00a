package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.MapVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;

/**
 * A {@code map} column: each map's entry count in LENGTH, keys and values in the two child columns,
 * read for the whole batch at once, into a {@link MapVector}; the entry count checked as a list's
 * elements are ({@link ListReader}), an entry taking twice an element's bytes.
 */
final class MapReader extends ColumnReader {

  private final DataType type;
  private final IntegerDecoder lengths;
  private final ColumnReader keys;
  private final ColumnReader values;
  private final long maxEntries;
  private int[] counts = new int[0];

  MapReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput lengths,
      boolean rleV2,
      ColumnReader keys,
      ColumnReader values,
      long maxBatchBytes,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.lengths = IntegerDecoder.create(owned(lengths), false, rleV2);
    this.keys = keys;
    this.values = values;
    this.maxEntries = maxBatchBytes / (2L * ReadSettings.MIN_ELEMENT_BYTES);
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    if (counts.length < count) {
      counts = new int[Math.max(count, counts.length * 2)];
    }
    long total = lengths.decodeLengths(counts, 0, count);
    Lengths.check(total, count, ReadSettings.MAX_ARRAY_LENGTH, maxEntries, "entries", where);
    int[] offsets = new int[rows + 1];
    Spread.offsets(counts, nulls, rows, offsets);
    ColumnVector keyVector = keys.read((int) total, null);
    ColumnVector valueVector = values.read((int) total, null);
    return new MapVector(type, rows, offsets, keyVector, valueVector, nulls);
  }

  @Override
  protected void skipValues(long count) throws IOException {
    long entries = lengths.skipLengths(count);
    keys.skip(entries);
    values.skip(entries);
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    lengths.seek(positions);
  }

  @Override
  public void seek(RowIndexes indexes, int stride) throws IOException {
    super.seek(indexes, stride);
    keys.seek(indexes, stride);
    values.seek(indexes, stride);
  }

  @Override
  public void close() {
    super.close();
    keys.close();
    values.close();
  }
}
