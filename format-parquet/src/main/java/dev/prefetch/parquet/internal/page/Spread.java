package dev.prefetch.parquet.internal.page;

/**
 * Moves values decoded densely at the start of a stretch of rows to the rows that are not null,
 * from the end, so that nothing is overwritten before it is moved. A null row's slot keeps whatever
 * it held (its mask says it is null). One method serves every primitive array: each stretch of rows
 * without a null is one {@link System#arraycopy}, so no per-type loop is needed and a stretch of
 * many rows moves as one block.
 */
public final class Spread {

  private Spread() {}

  /**
   * Rows {@code at..at+count-1} of {@code values}, a primitive array, whose first {@code defined}
   * slots hold the defined values in order, get them at the rows {@code nulls} does not mark.
   */
  public static void values(Object values, int at, int count, int defined, boolean[] nulls) {
    // Rows at or above `row` are placed; the values not yet placed are the slots below `source`.
    // `row - source` is the number of nulls below `row`: while it is positive a null lies below,
    // and once it is 0 the rows left are all defined and already in place.
    int source = at + defined;
    int row = at + count;
    while (row > source) {
      if (nulls[row - 1]) {
        row--;
        continue;
      }
      int end = row;
      do {
        row--;
      } while (!nulls[row - 1]);
      int length = end - row;
      source -= length;
      System.arraycopy(values, source, values, row, length);
    }
  }
}
