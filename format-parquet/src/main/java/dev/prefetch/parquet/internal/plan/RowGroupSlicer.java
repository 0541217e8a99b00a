package dev.prefetch.parquet.internal.plan;

import dev.prefetch.RowRange;
import dev.prefetch.spi.RangeBudget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * Cuts the selected rows of one row group into the row intervals of its read ranges. Rows are
 * counted from the row group's first row; an interval list is {@code [from0, to0, from1, to1,
 * ...]}, sorted and disjoint, each {@code to} exclusive.
 *
 * <p>Three things cut a row group, in this order: the read's row selection (each selected segment
 * of the row group is read apart), slice cuts at page starts (so that producers share a large row
 * group), and the rows the column indexes keep (a range reads only those of its slice, and a slice
 * the indexes drop entirely makes no range).
 *
 * <p>Slicing: a row group whose selected columns hold more than twice {@value #MIN_SLICE_BYTES}
 * compressed bytes is cut into at most {@code ceil(bytes / MIN_SLICE_BYTES)} page-aligned slices:
 * into {@code SLICES_PER_PRODUCER x producers} of them over all selected row groups when fewer row
 * groups are selected than there are producers, and into enough that no slice is longer than the
 * budget's look-ahead ({@link RangeBudget}). Cuts fall on page starts of one column (the planner
 * picks the selected column with the most bytes, so that column reads no page twice); other columns
 * read the pages overlapping each slice and skip the rows before it. The slices partition the row
 * group, so every row is read by exactly one slice.
 */
public final class RowGroupSlicer {

  /** Smallest compressed size of a slice of a split row group. */
  public static final long MIN_SLICE_BYTES = 1L << 20;

  /** Slices per producer at most, so that producers finishing early find more work. */
  public static final int SLICES_PER_PRODUCER = 4;

  private RowGroupSlicer() {}

  /**
   * Whether any of the candidate row groups may be sliced, before any offset index is read: there
   * are fewer of them than producers, or one is longer than the look-ahead.
   *
   * @param rowCounts rows of each candidate row group
   */
  public static boolean maySlice(long[] rowCounts, RangeBudget budget) {
    if (rowCounts.length < budget.producers()) {
      return true;
    }
    for (long rows : rowCounts) {
      if (budget.longerThanLookAhead(rows)) {
        return true;
      }
    }
    return false;
  }

  /**
   * How many slices a row group should be cut into (1: read it whole).
   *
   * @param rows rows of the row group
   * @param bytes compressed bytes of its selected columns
   * @param selectedRowGroups row groups the plan reads, this one included
   */
  public static int pieces(long rows, long bytes, int selectedRowGroups, RangeBudget budget) {
    if (bytes <= 2 * MIN_SLICE_BYTES || selectedRowGroups < 1) {
      return 1;
    }
    long pieces = 1;
    if (selectedRowGroups < budget.producers()) {
      // the file's share of the slices every producer should get, not that many per row group
      long wanted = (long) SLICES_PER_PRODUCER * budget.producers();
      pieces = (wanted + selectedRowGroups - 1) / selectedRowGroups;
    }
    pieces = Math.max(pieces, budget.minRangesFor(rows));
    pieces = Math.min(pieces, (bytes + MIN_SLICE_BYTES - 1) / MIN_SLICE_BYTES);
    return (int) Math.min(pieces, Integer.MAX_VALUE);
  }

  /**
   * Row indexes where slices start (the first slice starts at 0, not listed): page starts of {@code
   * index} at about every {@code 1 / pieces} of its compressed bytes, ascending, inside {@code (0,
   * rows)}. Fewer cuts than {@code pieces - 1} when the pages are too few or too uneven; none
   * without an index or with one page.
   */
  public static long[] pageCuts(OffsetIndex index, long rows, int pieces) {
    if (index == null || pieces < 2 || index.getPageCount() < 2) {
      return new long[0];
    }
    int pages = index.getPageCount();
    long total = 0;
    for (int p = 0; p < pages; p++) {
      total += index.getCompressedPageSize(p);
    }
    long[] cuts = new long[Math.min(pieces - 1, pages - 1)];
    int count = 0;
    long accumulated = 0;
    for (int p = 1; p < pages && count < cuts.length; p++) {
      accumulated += index.getCompressedPageSize(p - 1);
      long pageStart = index.getFirstRowIndex(p);
      if (accumulated * pieces >= total * (count + 1)
          && pageStart > 0
          && pageStart < rows
          && (count == 0 || pageStart > cuts[count - 1])) {
        cuts[count++] = pageStart;
      }
    }
    return Arrays.copyOf(cuts, count);
  }

  /**
   * The segments {@code [from, to)} of a row group of {@code rows} rows starting at file row {@code
   * firstRow} that {@code rowRanges} select (sorted, disjoint file rows; null selects all).
   */
  public static List<long[]> segments(List<RowRange> rowRanges, long firstRow, long rows) {
    List<long[]> segments = new ArrayList<>();
    if (rowRanges == null) {
      segments.add(new long[] {0, rows});
      return segments;
    }
    for (RowRange range : rowRanges) {
      long from = Math.max(range.start(), firstRow) - firstRow;
      long to = Math.min(range.end(), firstRow + rows) - firstRow;
      if (from < to) {
        segments.add(new long[] {from, to});
      }
    }
    return segments;
  }

  /**
   * The intervals of each range of the row group: every segment cut at {@code cuts}, each piece
   * intersected with {@code pageRanges} (null: every row), pieces the page ranges drop left out.
   */
  public static List<long[]> ranges(List<long[]> segments, long[] cuts, long[] pageRanges) {
    List<long[]> out = new ArrayList<>();
    for (long[] segment : segments) {
      long from = segment[0];
      for (int c = 0; c <= cuts.length && from < segment[1]; c++) {
        long to = c < cuts.length ? Math.min(cuts[c], segment[1]) : segment[1];
        if (to <= from) {
          continue;
        }
        long[] bounds = intersect(from, to, pageRanges);
        if (bounds.length > 0) {
          out.add(bounds);
        }
        from = to;
      }
    }
    return out;
  }

  /**
   * {@code [from, to)} intersected with {@code pageRanges} ({@code [from, to)} pairs, sorted and
   * disjoint; null: all rows), as intervals; empty when nothing is left.
   */
  public static long[] intersect(long from, long to, long[] pageRanges) {
    if (pageRanges == null) {
      return new long[] {from, to};
    }
    long[] bounds = new long[pageRanges.length];
    int count = 0;
    for (int i = 0; i < pageRanges.length; i += 2) {
      long start = Math.max(from, pageRanges[i]);
      long end = Math.min(to, pageRanges[i + 1]);
      if (start < end) {
        bounds[count++] = start;
        bounds[count++] = end;
      }
    }
    return Arrays.copyOf(bounds, count);
  }
}
