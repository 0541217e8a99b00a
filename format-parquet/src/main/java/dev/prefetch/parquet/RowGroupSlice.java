package dev.prefetch.parquet;

import dev.prefetch.spi.RangeLocator;

/**
 * Where a Parquet read range lies: a row group, whole or a slice of its rows. The locator of the
 * {@link dev.prefetch.spi.ReadRange}s a Parquet plan makes; {@link #describe()} (and {@code
 * toString()}) names it in error messages ("row group 3", "row group 3 rows 1000..2000").
 *
 * @param rowGroup index of the row group in the file's footer, from 0
 * @param startRow first row of the slice, counted from the row group's first row
 * @param endRow end of the slice (exclusive), counted likewise
 * @param whole whether the range reads every row of the row group
 */
public record RowGroupSlice(int rowGroup, long startRow, long endRow, boolean whole)
    implements RangeLocator {

  public RowGroupSlice {
    if (rowGroup < 0 || startRow < 0 || endRow < startRow) {
      throw new IllegalArgumentException(
          "invalid slice: row group " + rowGroup + " rows " + startRow + ".." + endRow);
    }
  }

  @Override
  public String describe() {
    return whole
        ? "row group " + rowGroup
        : "row group " + rowGroup + " rows " + startRow + ".." + endRow;
  }

  @Override
  public String toString() {
    return describe();
  }
}
