package dev.prefetch.orc.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * The conversions of {@link VectorConverter} that always copy: timestamps (millis and nanos to one
 * long of nanos), bytes (orc-core's per-value references into one contiguous array), wide decimal
 * values, and the child offsets of lists and maps. Stateless; each method allocates the arrays it
 * returns.
 */
final class OrcCopies {

  private OrcCopies() {}

  /**
   * The run's timestamps as nanoseconds since the epoch; an {@link ArithmeticException} saying so
   * when one lies outside the years 1677 to 2262 that a long of nanoseconds holds.
   */
  static long[] timestamps(TimestampColumnVector v, int start, int count) {
    try {
      return nanosOf(v, start, count);
    } catch (ArithmeticException e) {
      throw new ArithmeticException(
          "a timestamp outside the years 1677 to 2262, which nanoseconds since the epoch hold");
    }
  }

  private static long[] nanosOf(TimestampColumnVector v, int start, int count) {
    long[] out = new long[count];
    long[] time = v.time;
    int[] nanos = v.nanos;
    if (v.isRepeating) {
      if (v.noNulls || !v.isNull[0]) {
        Arrays.fill(out, nanosOf(time[0], nanos[0]));
      }
      return out;
    }
    if (v.noNulls) {
      for (int i = 0; i < count; i++) {
        out[i] = nanosOf(time[start + i], nanos[start + i]);
      }
      return out;
    }
    boolean[] isNull = v.isNull;
    for (int i = 0; i < count; i++) {
      if (!isNull[start + i]) {
        out[i] = nanosOf(time[start + i], nanos[start + i]);
      }
    }
    return out;
  }

  /**
   * The nanoseconds since the epoch of orc-core's {@code time} (milliseconds) and {@code nanos}:
   * {@code time} is the second's milliseconds plus the milliseconds of {@code nanos}, so the second
   * is {@code time - nanos / 10^6} whatever the sign of {@code nanos}. For the format's range of
   * nanos, [0, 999999999], this is {@code floorDiv(time, 1000) * 10^9 + nanos}; a negative nanos
   * (Arrow's ORC adapter stores one for a time before 1970 with a fraction of a second, and
   * orc-core hands it over as it is) counts back from its second, as the writer meant and Arrow C++
   * reads it.
   */
  static long nanosOf(long millis, int nanos) {
    return Math.addExact(
        Math.multiplyExact(Math.subtractExact(millis, nanos / 1_000_000), 1_000_000L), nanos);
  }

  /**
   * The run's values back to back. Two passes: offsets (noting whether the values already lie back
   * to back in one orc-core buffer, as a directly encoded column's do), then the bytes, in one copy
   * when they do.
   */
  static BinaryVector bytes(
      DataType dataType, BytesColumnVector v, int start, int count, boolean[] nulls) {
    if (v.isRepeating) {
      return repeatedBytes(dataType, v, count, nulls);
    }
    byte[][] refs = v.vector;
    int[] starts = v.start;
    int[] lengths = v.length;
    int[] offsets = new int[count + 1];
    long total = 0;
    byte[] shared = null;
    int firstStart = 0;
    long nextStart = 0;
    boolean backToBack = true;
    for (int i = 0; i < count; i++) {
      if (nulls == null || !nulls[i]) {
        int row = start + i;
        int length = lengths[row];
        if (length > 0) {
          if (shared == null) {
            shared = refs[row];
            firstStart = starts[row];
            nextStart = firstStart;
          }
          backToBack &= refs[row] == shared && starts[row] == nextStart;
          nextStart = (long) starts[row] + length;
          total += length;
        }
      }
      offsets[i + 1] = (int) total;
    }
    if (total > Integer.MAX_VALUE) {
      throw new ArithmeticException(
          "a batch of " + count + " values holds " + total + " bytes, more than an array can");
    }
    if (backToBack
        && shared != null
        && firstStart == 0
        && shared.length == total
        && shared.length != v.bufferSize()) {
      // The run is the whole array: orc-core reads a batch of directly encoded strings into an
      // array of their exact total length, fresh for each batch (or the stripe's dictionary,
      // never written after its load), so it is handed over. Only its own value buffer
      // (bufferSize) is written again, by a later batch; that one is always copied.
      return new BinaryVector(dataType, count, shared, offsets, nulls);
    }
    byte[] data = new byte[(int) total];
    if (backToBack) {
      if (total > 0) {
        System.arraycopy(shared, firstStart, data, 0, (int) total);
      }
    } else {
      for (int i = 0; i < count; i++) {
        int length = offsets[i + 1] - offsets[i];
        if (length > 0) {
          System.arraycopy(refs[start + i], starts[start + i], data, offsets[i], length);
        }
      }
    }
    return new BinaryVector(dataType, count, data, offsets, nulls);
  }

  static BinaryVector repeatedBytes(
      DataType dataType, BytesColumnVector v, int count, boolean[] nulls) {
    int[] offsets = new int[count + 1];
    if (nulls != null || v.length[0] == 0) {
      return new BinaryVector(dataType, count, new byte[0], offsets, nulls); // all null or empty
    }
    int length = v.length[0];
    byte[] data = new byte[Math.multiplyExact(length, count)];
    for (int i = 0; i < count; i++) {
      System.arraycopy(v.vector[0], v.start[0], data, i * length, length);
      offsets[i + 1] = (i + 1) * length;
    }
    return new BinaryVector(dataType, count, data, offsets, nulls);
  }

  static java.math.BigInteger unscaled(DecimalColumnVector v, int row, int scale) {
    // HiveDecimal drops trailing zeros; rescale to the column's scale (exact: never rounds).
    BigDecimal value = v.vector[row].getHiveDecimal().bigDecimalValue();
    return value.setScale(scale).unscaledValue();
  }

  /**
   * Fills {@code out} with the run's offsets rebased to 0 and returns the first child element.
   * orc-core writes a batch's children back to back in row order; anything else is a bug, not data.
   */
  static int childOffsets(
      long[] offsets,
      long[] lengths,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector v,
      int start,
      int count,
      int[] out) {
    boolean repeatingNull = v.isRepeating && !v.noNulls && v.isNull[0];
    int first = -1;
    long total = 0;
    for (int i = 0; i < count; i++) {
      int row = v.isRepeating ? 0 : start + i;
      boolean isNull = repeatingNull || (!v.noNulls && v.isNull[row]);
      if (!isNull) {
        if (first < 0) {
          first = Math.toIntExact(offsets[row]);
        } else if (!v.isRepeating && offsets[row] != first + total) {
          throw new IllegalStateException("list or map children are not contiguous at row " + row);
        }
        total += lengths[row];
      }
      out[i + 1] = Math.toIntExact(total);
    }
    return first < 0 ? 0 : first;
  }
}
