package dev.prefetch.orc.internal.stripe;

import dev.prefetch.CorruptFileException;
import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.io.IOException;
import java.util.List;
import org.apache.orc.OrcProto;

/**
 * A stripe's row indexes (and bloom filters) of the columns a read needs, parsed once: where each
 * column's streams are at the start of each row group, and the statistics a predicate is tested
 * against. Immutable after {@link #parse}; shared by the stripe's range readers.
 */
public final class RowIndexes {

  /** The bytes of one stream, as its stripe's reads hold them. */
  @FunctionalInterface
  interface StreamBytes {
    StreamInput open(StripeLayout.Stream stream) throws IOException;
  }

  private final String where;
  private final OrcProto.RowIndex[] indexes;
  private final OrcProto.BloomFilterIndex[] blooms;
  private final OrcProto.Stream.Kind[] bloomKinds;

  private RowIndexes(
      String where,
      OrcProto.RowIndex[] indexes,
      OrcProto.BloomFilterIndex[] blooms,
      OrcProto.Stream.Kind[] bloomKinds) {
    this.where = where;
    this.indexes = indexes;
    this.blooms = blooms;
    this.bloomKinds = bloomKinds;
  }

  /**
   * The kind of bloom filter stream that a predicate on each column reads: as orc-core chooses, the
   * last bloom filter stream of the column in the stripe (writers write one kind).
   */
  static OrcProto.Stream.Kind[] bloomKinds(StripeLayout layout, int columnCount) {
    OrcProto.Stream.Kind[] kinds = new OrcProto.Stream.Kind[columnCount];
    for (StripeLayout.Stream stream : layout.streams()) {
      OrcProto.Stream.Kind kind = stream.kind();
      if ((kind == OrcProto.Stream.Kind.BLOOM_FILTER
              || kind == OrcProto.Stream.Kind.BLOOM_FILTER_UTF8)
          && stream.column() >= 0
          && stream.column() < columnCount) {
        kinds[stream.column()] = kind;
      }
    }
    return kinds;
  }

  /**
   * Parses the ROW_INDEX streams of the {@code columns} and the bloom filters of the {@code
   * bloomColumns} (null for none) of a stripe.
   *
   * @param where the file and stripe, for messages
   * @throws CorruptFileException when a stream does not decode or parse
   */
  static RowIndexes parse(
      String where,
      StripeLayout layout,
      boolean[] columns,
      boolean[] bloomColumns,
      StreamBytes bytes,
      DecompressionContext decompression)
      throws IOException {
    int count = columns.length;
    OrcProto.RowIndex[] indexes = new OrcProto.RowIndex[count];
    OrcProto.BloomFilterIndex[] blooms = new OrcProto.BloomFilterIndex[count];
    OrcProto.Stream.Kind[] kinds = bloomKinds(layout, count);
    for (int column = 0; column < count; column++) {
      if (columns[column]) {
        StripeLayout.Stream stream = layout.stream(column, OrcProto.Stream.Kind.ROW_INDEX);
        if (stream != null) {
          byte[] data = read(where, stream, bytes);
          try {
            indexes[column] = OrcProto.RowIndex.parseFrom(data);
          } catch (IOException | RuntimeException e) {
            throw unparsable(where, stream, e);
          }
        }
      }
      if (bloomColumns != null && bloomColumns[column] && kinds[column] != null) {
        StripeLayout.Stream stream = layout.stream(column, kinds[column]);
        if (stream != null) {
          byte[] data = read(where, stream, bytes);
          try {
            blooms[column] = OrcProto.BloomFilterIndex.parseFrom(data);
          } catch (IOException | RuntimeException e) {
            throw unparsable(where, stream, e);
          }
        }
      }
    }
    return new RowIndexes(where, indexes, blooms, kinds);
  }

  private static CorruptFileException unparsable(
      String where, StripeLayout.Stream stream, Exception e) {
    return new CorruptFileException(
        "Corrupt "
            + where
            + ", column "
            + stream.column()
            + ": its "
            + stream.kind()
            + " stream does not parse: "
            + e.getMessage(),
        e);
  }

  private static byte[] read(String where, StripeLayout.Stream stream, StreamBytes bytes)
      throws IOException {
    try (StreamInput in = bytes.open(stream)) {
      return in.readAll();
    } catch (CorruptStreamException e) {
      throw new CorruptFileException(
          "Corrupt " + where + ", column " + stream.column() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new CorruptFileException(
          "Corrupt " + where + ", column " + stream.column() + ": its " + stream.kind() + ": " + e,
          e);
    }
  }

  /** The row index of {@code column}, or null when the stripe has none (or it was not read). */
  public OrcProto.RowIndex rowIndex(int column) {
    return column < indexes.length ? indexes[column] : null;
  }

  /** Whether every one of {@code columns} has a row index with an entry per row group. */
  boolean covers(boolean[] columns, int rowGroups) {
    for (int column = 0; column < columns.length; column++) {
      if (columns[column]
          && (indexes[column] == null || indexes[column].getEntryCount() < rowGroups)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The positions of {@code column}'s entry for row group {@code stride}, for its streams to seek.
   *
   * @throws CorruptFileException when the column has no row index or no such entry
   */
  public IndexPositions positions(int column, int stride) throws CorruptFileException {
    OrcProto.RowIndex index = rowIndex(column);
    if (index == null) {
      throw new CorruptFileException(
          "Corrupt "
              + where
              + ", column "
              + column
              + ": it has no row index, which a read from row group "
              + stride
              + " needs");
    }
    if (stride < 0 || stride >= index.getEntryCount()) {
      throw new CorruptFileException(
          "Corrupt "
              + where
              + ", column "
              + column
              + ": its row index has "
              + index.getEntryCount()
              + " entries, no entry for row group "
              + stride);
    }
    return IndexPositions.of(index.getEntry(stride).getPositionsList());
  }

  /** Position {@code at} of {@code column}'s entry for {@code stride}, or -1 when it has none. */
  long position(int column, int stride, int at) {
    OrcProto.RowIndex index = rowIndex(column);
    if (index == null || stride < 0 || stride >= index.getEntryCount()) {
      return -1;
    }
    List<Long> positions = index.getEntry(stride).getPositionsList();
    return at < positions.size() ? positions.get(at) : -1;
  }

  OrcProto.RowIndex[] rowIndexArray() {
    return indexes;
  }

  OrcProto.BloomFilterIndex[] bloomFilterArray() {
    return blooms;
  }

  OrcProto.Stream.Kind[] bloomKindArray() {
    return bloomKinds;
  }
}
