package dev.prefetch;

/**
 * The file rows {@code [start, end)}: a selection a caller can ask a read to return.
 *
 * @param start first row (inclusive)
 * @param end last row (exclusive)
 */
public record RowRange(long start, long end) {

  public RowRange {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "row range must satisfy 0 <= start <= end: [" + start + ", " + end + ")");
    }
  }

  public long count() {
    return end - start;
  }

  /** Whether {@code [otherStart, otherEnd)} shares a row with this range. */
  public boolean overlaps(long otherStart, long otherEnd) {
    return otherStart < end && start < otherEnd;
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
