package dev.prefetch.spi;

/**
 * A unit of reading: the rows {@code [firstRow, firstRow + rowCount)} of one file and where the
 * format finds them.
 *
 * <p>The ranges of a plan are in ascending row order, do not overlap, and together cover exactly
 * the rows the read selects. A range never crosses a Parquet row group or ORC stripe, so batches
 * (which never span two ranges) never do either.
 *
 * @param index position of the range in its plan, from 0
 * @param firstRow file row index of the range's first row
 * @param rowCount rows spanned (selected rows may be fewer when a filter prunes pages)
 * @param estimatedBytes estimated compressed bytes of the selected columns
 * @param locator the format's locator (row group and page slice, stripe and strides), named in
 *     error messages; null for none
 */
public record ReadRange(
    int index, long firstRow, long rowCount, long estimatedBytes, RangeLocator locator) {

  public ReadRange {
    if (index < 0 || firstRow < 0 || rowCount < 0 || estimatedBytes < 0) {
      throw new IllegalArgumentException(
          "negative value in range "
              + index
              + ": firstRow="
              + firstRow
              + ", rowCount="
              + rowCount
              + ", estimatedBytes="
              + estimatedBytes);
    }
  }

  public long endRow() {
    return firstRow + rowCount;
  }

  /** "range 3 (rows 1000..2000, row group 2)" for messages. */
  public String describe() {
    return "range "
        + index
        + " (rows "
        + firstRow
        + ".."
        + endRow()
        + (locator == null ? "" : ", " + locator.describe())
        + ")";
  }
}
