package dev.prefetch.orc.internal.reader;

/**
 * Moves values decoded densely (the {@code count} values of the rows that are not null, in {@code
 * [0, count)}) to the rows they belong to, in place: from the last row backwards, each value moves
 * to its row, which is never before its dense slot, so nothing is overwritten before it is moved.
 * Null rows keep whatever their slot held (a vector's null slots are unspecified). Once the dense
 * index meets the row index every row before it is not null and already in place, so the loop stops
 * there. One counted loop per type; no per-value call.
 */
final class Spread {

  private Spread() {}

  static void longs(long[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void ints(int[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void shorts(short[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void bytes(byte[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void booleans(boolean[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void floats(float[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  static void doubles(double[] values, boolean[] nulls, int rows, int count) {
    int j = count - 1;
    for (int i = rows - 1; i > j; i--) {
      if (!nulls[i]) {
        values[i] = values[j--];
      }
    }
  }

  /**
   * The {@code rows + 1} offsets of spans whose lengths, of the rows that are not null, are {@code
   * lengths[0, count)} densely; null rows get an empty span.
   */
  static void offsets(int[] lengths, boolean[] nulls, int rows, int[] offsets) {
    int at = 0;
    int j = 0;
    offsets[0] = 0;
    if (nulls == null) {
      for (int i = 0; i < rows; i++) {
        at += lengths[i];
        offsets[i + 1] = at;
      }
      return;
    }
    for (int i = 0; i < rows; i++) {
      if (!nulls[i]) {
        at += lengths[j++];
      }
      offsets[i + 1] = at;
    }
  }
}
