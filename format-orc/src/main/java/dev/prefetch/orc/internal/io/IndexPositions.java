package dev.prefetch.orc.internal.io;

import java.util.List;

/**
 * The positions of one row index entry of a column (its {@code RowIndexEntry.positions}), read in
 * order by the column's streams as each seeks to the entry's row: a stream takes its part (see
 * {@link StreamInput#seek(IndexPositions)}), then its decoder takes the values to skip in the run
 * there, and the next stream of the column continues from what is left.
 *
 * <p>The streams take their parts in the fixed order of the ORC specification for the column's type
 * and encoding (PRESENT first when the stripe has it; then for example DATA, LENGTH for strings;
 * DATA, SECONDARY for decimals and timestamps), not the order the streams lie in.
 *
 * <p>Wraps the array it is given (not copied). Confined to one thread.
 */
public final class IndexPositions {

  private final long[] positions;
  private int next;

  /** Over {@code positions}, which the caller does not change while this is read. */
  public IndexPositions(long[] positions) {
    this.positions = java.util.Objects.requireNonNull(positions, "positions is null");
  }

  /** Over a copy of {@code positions} (as protobuf hands them out). */
  public static IndexPositions of(List<Long> positions) {
    long[] values = new long[positions.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = positions.get(i);
    }
    return new IndexPositions(values);
  }

  /**
   * The next position, not negative.
   *
   * @param stream the stream taking it, for the message
   * @throws CorruptStreamException when the entry has no more positions, or this one is negative
   */
  public long next(String stream) throws CorruptStreamException {
    if (next == positions.length) {
      throw new CorruptStreamException(
          stream,
          "its row index entry has only "
              + positions.length
              + " positions, fewer than the column's streams take");
    }
    long value = positions[next++];
    if (value < 0) {
      throw new CorruptStreamException(
          stream, "row index position " + (next - 1) + " is " + Long.toUnsignedString(value));
    }
    return value;
  }

  /** Positions not taken yet. */
  public int remaining() {
    return positions.length - next;
  }
}
