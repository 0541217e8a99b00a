package dev.prefetch.parquet.internal.plan;

import java.util.Arrays;

/**
 * How a range reader reads one planned range: the row group, and the selected rows as sorted,
 * disjoint intervals counted from the row group's first row.
 *
 * @param rowGroup index of the row group in the footer
 * @param rowGroupFirstRow file row index of the row group's first row
 * @param rowGroupRows rows in the row group
 * @param bounds interval bounds {@code [from0, to0, from1, to1, ...]}, each {@code to} exclusive
 * @param pageFiltered whether only the pages overlapping the intervals are read (every selected
 *     column has an offset index); otherwise the whole row group is read and rows outside the
 *     intervals are skipped while decoding
 */
public record SliceSpec(
    int rowGroup, long rowGroupFirstRow, long rowGroupRows, long[] bounds, boolean pageFiltered) {

  public SliceSpec {
    if (bounds.length == 0 || bounds.length % 2 != 0) {
      throw new IllegalArgumentException("bounds must be pairs: " + Arrays.toString(bounds));
    }
    bounds = bounds.clone();
  }

  /** Whether the intervals are the whole row group. */
  public boolean whole() {
    return bounds.length == 2 && bounds[0] == 0 && bounds[1] == rowGroupRows;
  }

  public int intervals() {
    return bounds.length / 2;
  }

  public long from(int interval) {
    return bounds[2 * interval];
  }

  public long to(int interval) {
    return bounds[2 * interval + 1];
  }
}
