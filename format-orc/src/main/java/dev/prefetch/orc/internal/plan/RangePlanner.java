package dev.prefetch.orc.internal.plan;

import dev.prefetch.RowRange;
import dev.prefetch.spi.ReadRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the kept stripes of an ORC file into read ranges of whole row-index strides.
 *
 * <p>Each stripe's estimated bytes for the selected columns are spread evenly over its strides; a
 * range takes as many consecutive strides as bring it nearest to the natural read size (at least
 * one, and no more than a given number of rows), and the strides of a stripe are then shared out
 * evenly among its ranges, so there is no runt range at the stripe's end. A range never crosses a
 * stripe end. Without a row index ({@code rowIndexStride == 0}) a range is a whole stripe. A row
 * selection then clips the ranges (a clipped range keeps the strides it still touches, and a share
 * of the estimate in proportion to its rows).
 */
public final class RangePlanner {

  /**
   * The ranges and, at the same indexes, their locators, which the range readers look up by range
   * index.
   */
  public record Planned(List<ReadRange> ranges, List<StrideLocator> locators) {
    public Planned {
      ranges = List.copyOf(ranges);
      locators = List.copyOf(locators);
      if (ranges.size() != locators.size()) {
        throw new IllegalArgumentException(
            ranges.size() + " ranges but " + locators.size() + " locators");
      }
    }
  }

  private RangePlanner() {}

  /**
   * @param stripeRows rows of each stripe
   * @param stripeBytes estimated compressed bytes of the selected columns in each stripe
   * @param keep which stripes to read (split, predicate)
   * @param rowIndexStride rows per stride, 0 for a file without a row index
   * @param naturalReadSizeBytes target bytes of a range
   * @param maxRangeRows most rows of a range made of several strides (at least one stride)
   * @param rowRanges file rows to read, sorted and disjoint, or null for all
   */
  public static Planned plan(
      long[] stripeRows,
      long[] stripeBytes,
      boolean[] keep,
      long rowIndexStride,
      long naturalReadSizeBytes,
      long maxRangeRows,
      List<RowRange> rowRanges) {
    List<ReadRange> ranges = new ArrayList<>();
    List<StrideLocator> locators = new ArrayList<>();
    long stripeStart = 0;
    for (int s = 0; s < stripeRows.length; s++) {
      long rows = stripeRows[s];
      if (keep[s] && rows > 0) {
        if (rowIndexStride <= 0) {
          add(
              ranges,
              locators,
              stripeStart,
              rows,
              stripeBytes[s],
              StrideLocator.wholeStripe(s),
              rowRanges,
              0);
        } else {
          long strides = (rows + rowIndexStride - 1) / rowIndexStride;
          double bytesPerStride = (double) stripeBytes[s] / strides;
          long perRange =
              bytesPerStride <= 0
                  ? strides
                  : Math.max(
                      1, Math.min(strides, Math.round(naturalReadSizeBytes / bytesPerStride)));
          perRange = Math.max(1, Math.min(perRange, maxRangeRows / rowIndexStride));
          long count = (strides + perRange - 1) / perRange;
          for (long r = 0; r < count; r++) {
            long first = r * strides / count;
            long end = (r + 1) * strides / count;
            long firstRow = first * rowIndexStride;
            long endRow = Math.min(rows, end * rowIndexStride);
            long bytes = Math.round(bytesPerStride * (end - first));
            add(
                ranges,
                locators,
                stripeStart + firstRow,
                endRow - firstRow,
                bytes,
                new StrideLocator(s, Math.toIntExact(first), Math.toIntExact(end - 1)),
                rowRanges,
                rowIndexStride);
          }
        }
      }
      stripeStart += rows;
    }
    return new Planned(ranges, locators);
  }

  /** Adds {@code [firstRow, firstRow + rows)}, or its parts inside the row selection. */
  private static void add(
      List<ReadRange> out,
      List<StrideLocator> locators,
      long firstRow,
      long rows,
      long bytes,
      StrideLocator locator,
      List<RowRange> rowRanges,
      long rowIndexStride) {
    if (rowRanges == null) {
      out.add(new ReadRange(out.size(), firstRow, rows, bytes, locator));
      locators.add(locator);
      return;
    }
    long end = firstRow + rows;
    long stripeFirstRow =
        locator.firstStride() < 0
            ? firstRow
            : firstRow - (long) locator.firstStride() * rowIndexStride;
    for (RowRange selected : rowRanges) {
      if (!selected.overlaps(firstRow, end)) {
        continue;
      }
      long from = Math.max(firstRow, selected.start());
      long to = Math.min(end, selected.end());
      StrideLocator clipped = locator;
      if (locator.firstStride() >= 0) {
        clipped =
            new StrideLocator(
                locator.stripe(),
                Math.toIntExact((from - stripeFirstRow) / rowIndexStride),
                Math.toIntExact((to - 1 - stripeFirstRow) / rowIndexStride));
      }
      long share = Math.round((double) bytes * (to - from) / rows);
      out.add(new ReadRange(out.size(), from, to - from, share, clipped));
      locators.add(clipped);
    }
  }
}
