package dev.prefetch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

  /** {@code ranges} sorted by start, touching or overlapping ones merged, empty ones dropped. */
  public static List<RowRange> normalize(List<RowRange> ranges) {
    List<RowRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(RowRange::start));
    List<RowRange> merged = new ArrayList<>();
    for (RowRange range : sorted) {
      if (range.count() == 0) {
        continue;
      }
      RowRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range.start() <= last.end()) {
        merged.set(
            merged.size() - 1, new RowRange(last.start(), Math.max(last.end(), range.end())));
      } else {
        merged.add(range);
      }
    }
    return List.copyOf(merged);
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
