package dev.prefetch.parquet.internal.page;

/**
 * Moves values decoded densely at the start of a stretch of rows to the rows that are not null,
 * from the end, so that nothing is overwritten before it is moved. A null row's slot keeps whatever
 * it held (its mask says it is null). One method per array type, for the JIT's sake.
 */
public final class Spread {

  private Spread() {}

  // Each method: rows at..at+count-1 whose first `defined` slots hold the defined values in
  // order; the value for row r comes from slot `source`, the last not yet placed. Once the
  // source meets the row, the remaining rows are all defined and already in place.

  public static void ints(int[] values, int at, int count, int defined, boolean[] nulls) {
    int source = at + defined - 1;
    for (int row = at + count - 1; row > source; row--) {
      if (!nulls[row]) {
        values[row] = values[source--];
      }
    }
  }

  public static void longs(long[] values, int at, int count, int defined, boolean[] nulls) {
    int source = at + defined - 1;
    for (int row = at + count - 1; row > source; row--) {
      if (!nulls[row]) {
        values[row] = values[source--];
      }
    }
  }

  public static void floats(float[] values, int at, int count, int defined, boolean[] nulls) {
    int source = at + defined - 1;
    for (int row = at + count - 1; row > source; row--) {
      if (!nulls[row]) {
        values[row] = values[source--];
      }
    }
  }

  public static void doubles(double[] values, int at, int count, int defined, boolean[] nulls) {
    int source = at + defined - 1;
    for (int row = at + count - 1; row > source; row--) {
      if (!nulls[row]) {
        values[row] = values[source--];
      }
    }
  }

  public static void booleans(boolean[] values, int at, int count, int defined, boolean[] nulls) {
    int source = at + defined - 1;
    for (int row = at + count - 1; row > source; row--) {
      if (!nulls[row]) {
        values[row] = values[source--];
      }
    }
  }
}
