package dev.prefetch.orc.internal.reader;

import dev.prefetch.CorruptFileException;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.StructVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.ByteRleDecoder;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code uniontype} column, as the STRUCT of an INT8 tag and one field per alternative (the type
 * mapping's): each row's tag in DATA (byte RLE), and each alternative read with the rows of other
 * tags (and null unions) as its parent's nulls, as orc-core reads it; a null union has a null tag.
 * A tag naming no alternative is corrupt.
 */
final class UnionReader extends ColumnReader {

  private final DataType type;
  private final ByteRleDecoder tags;
  private final List<ColumnReader> alternatives;
  private byte[] dense = new byte[0];
  private boolean[] others = new boolean[0];

  UnionReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      List<ColumnReader> alternatives,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.tags = new ByteRleDecoder(owned(data));
    this.alternatives = List.copyOf(alternatives);
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    byte[] tag = new byte[rows];
    tags.decode(tag, 0, count);
    checkTags(tag, count);
    if (nulls != null) {
      Spread.bytes(tag, nulls, rows, count);
    }
    if (others.length < rows) {
      others = new boolean[rows];
    }
    boolean[] other = others;
    List<ColumnVector> fields = new ArrayList<>(alternatives.size() + 1);
    fields.add(new ByteVector(DataType.int8(), rows, tag, nulls == null ? null : nulls.clone()));
    for (int f = 0; f < alternatives.size(); f++) {
      for (int i = 0; i < rows; i++) {
        other[i] = (nulls != null && nulls[i]) || tag[i] != f;
      }
      fields.add(alternatives.get(f).read(rows, other));
    }
    return new StructVector(type, rows, fields, nulls);
  }

  private void checkTags(byte[] tag, int count) throws CorruptFileException {
    int alternativesCount = alternatives.size();
    for (int j = 0; j < count; j++) {
      if ((tag[j] & 0xFF) >= alternativesCount) {
        throw new CorruptFileException(
            "Corrupt "
                + where
                + ": union tag "
                + (tag[j] & 0xFF)
                + " for a union of "
                + alternativesCount
                + " alternatives");
      }
    }
  }

  @Override
  protected void skipValues(long values) throws IOException {
    long[] counts = new long[alternatives.size()];
    long left = values;
    while (left > 0) {
      int n = (int) Math.min(left, 8192);
      if (dense.length < n) {
        dense = new byte[n];
      }
      tags.decode(dense, 0, n);
      checkTags(dense, n);
      for (int j = 0; j < n; j++) {
        counts[dense[j] & 0xFF]++;
      }
      left -= n;
    }
    for (int f = 0; f < counts.length; f++) {
      alternatives.get(f).skip(counts[f]);
    }
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    tags.seek(positions);
  }

  @Override
  public void seek(RowIndexes indexes, int stride) throws IOException {
    super.seek(indexes, stride);
    for (ColumnReader alternative : alternatives) {
      alternative.seek(indexes, stride);
    }
  }

  @Override
  public void close() {
    super.close();
    for (ColumnReader alternative : alternatives) {
      alternative.close();
    }
  }
}
