package dev.prefetch.testing;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A content hash over every value of a read, in row order, that does not depend on how the rows
 * were cut into batches (or on how many threads read them).
 *
 * <p>Each top-level column is a stream of items fed in row order: one item per value or null (a
 * variable-length value is first hashed into one item). Item {@code i} of a column goes to the
 * column's lane {@code i mod 4}, and each lane keeps a running 64-bit hash; the result mixes every
 * lane of every column in order. Four lanes give the CPU four independent dependency chains, so
 * that feeding a value costs about a cycle: in a timed scan the checksum stands for the engine's
 * work on the rows and must not dominate the read it checks.
 *
 * <p>Values are fed in a canonical form, so a reader that is not built on {@link RecordBatch} (a
 * format library's own reader, in a benchmark) can produce the same checksum through the {@code
 * add*} methods:
 *
 * <ul>
 *   <li>booleans and all integer kinds (and DATE, TIME, TIMESTAMP, long-backed DECIMAL) as {@link
 *       #addLong}; FLOAT32 and FLOAT64 as {@link #addDouble} of the value widened to double;
 *   <li>STRING, BINARY, FIXED_BINARY as {@link #addBytes}; wide DECIMAL as {@link #addBytes} of the
 *       minimal big-endian two's complement unscaled value;
 *   <li>a null as {@link #addNull};
 *   <li>a LIST or MAP as {@link #addLong} of its length, then its elements (key, value, key, ...);
 *       a STRUCT as its fields in order.
 * </ul>
 *
 * Not thread-safe: one reader feeds it.
 */
public final class Checksum implements CanonicalValues.Sink {

  /** Names the hash function; stored beside kept checksums so that a change invalidates them. */
  public static final String ALGORITHM = "lanes4-v2";

  private static final int LANES = 4;
  private static final long NULL_MARK = 0x5BD1E9955BD1E995L;
  private static final long K1 = 0x9E3779B97F4A7C15L;
  private static final long K2 = 0xC2B2AE3D27D4EB4FL;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Rows of a primitive vector widened at a time before the lane loop. */
  private static final int CHUNK = 1024;

  /** {@code LANES} running hashes per column. */
  private final long[] lanes;

  /** Items fed per column: the lane of the next item is {@code items[c] mod LANES}. */
  private final long[] items;

  private final long[] scratch = new long[CHUNK];
  private long rows;

  /** Per column, the dictionary whose entries' items {@link #dictionaryItems} holds. */
  private final BinaryVector[] dictionaries;

  private final long[][] dictionaryItems;

  public Checksum(int columns) {
    this.lanes = new long[columns * LANES];
    this.items = new long[columns];
    this.dictionaries = new BinaryVector[columns];
    this.dictionaryItems = new long[columns][];
  }

  /** Feeds every value of {@code batch}, row after row per column. */
  public void add(RecordBatch batch) {
    if (batch.columns().size() != items.length) {
      throw new IllegalArgumentException(
          "checksum of " + items.length + " columns fed a batch of " + batch.columns().size());
    }
    for (int c = 0; c < items.length; c++) {
      addColumn(c, batch.column(c), batch.rowCount());
    }
    rows += batch.rowCount();
  }

  /** One type test per vector, then a typed loop over the lanes. */
  private void addColumn(int column, ColumnVector vector, int count) {
    boolean[] nulls = vector.nullMask();
    if (vector instanceof LongVector v) {
      addLongs(column, v.values(), 0, count, nulls);
    } else if (vector instanceof DecimalVector v && v.isLongBacked()) {
      addLongs(column, v.unscaledLongs(), 0, count, nulls);
    } else if (vector instanceof IntVector v) {
      addWidened(column, count, nulls, v.values(), Checksum::widen);
    } else if (vector instanceof DoubleVector v) {
      addWidened(column, count, nulls, v.values(), Checksum::widen);
    } else if (vector instanceof FloatVector v) {
      addWidened(column, count, nulls, v.values(), Checksum::widen);
    } else if (vector instanceof BooleanVector v) {
      addWidened(column, count, nulls, v.values(), Checksum::widen);
    } else if (vector instanceof BinaryVector v) {
      addWidened(column, count, nulls, v, Checksum::widen);
    } else if (vector instanceof DictionaryVector v) {
      addWidened(column, count, nulls, v.ids(), entryItems(column, v.dictionary()));
    } else {
      for (int row = 0; row < count; row++) {
        addValue(column, vector, row);
      }
    }
  }

  /**
   * Writes the items of rows {@code from..from+n-1} of {@code values} as longs into {@code out}.
   * One static method per array type, so that each widening loop is compiled for its own type.
   */
  private interface Widening<A> {
    void into(A values, int from, long[] out, int n);
  }

  /** Feeds {@code count} rows widened a chunk at a time (the null mask still decides). */
  private <A> void addWidened(
      int column, int count, boolean[] nulls, A values, Widening<A> widening) {
    for (int from = 0; from < count; from += CHUNK) {
      int n = Math.min(CHUNK, count - from);
      widening.into(values, from, scratch, n);
      addLongs(column, scratch, from, n, nulls);
    }
  }

  private static void widen(int[] values, int from, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = values[from + i];
    }
  }

  private static void widen(double[] values, int from, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = canonical(values[from + i]);
    }
  }

  private static void widen(float[] values, int from, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = canonical(values[from + i]);
    }
  }

  private static void widen(boolean[] values, int from, long[] out, int n) {
    for (int i = 0; i < n; i++) {
      out[i] = values[from + i] ? 1 : 0;
    }
  }

  /**
   * The widening of a column's dictionary ids: each id's item is its entry's, hashed once per
   * dictionary (a column's batches share one until its next row group). An id out of range, which
   * only a null row may hold, widens to 0; the null mask then feeds the null mark instead.
   */
  private Widening<int[]> entryItems(int column, BinaryVector dictionary) {
    if (dictionaries[column] != dictionary) {
      long[] items = new long[dictionary.size()];
      widen(dictionary, 0, items, items.length);
      dictionaries[column] = dictionary;
      dictionaryItems[column] = items;
    }
    long[] items = dictionaryItems[column];
    return (ids, from, out, n) -> {
      for (int i = 0; i < n; i++) {
        int id = ids[from + i];
        out[i] = id >= 0 && id < items.length ? items[id] : 0;
      }
    };
  }

  /** A variable-length value's item is the hash of its bytes ({@link #bytesItem}). */
  private static void widen(BinaryVector vector, int from, long[] out, int n) {
    byte[] data = vector.data();
    int[] offsets = vector.offsets();
    for (int i = 0; i < n; i++) {
      int start = offsets[from + i];
      out[i] = bytesItem(data, start, offsets[from + i + 1] - start);
    }
  }

  /**
   * Feeds {@code count} items: {@code values[i]} for row {@code nullBase + i}, or the null mark
   * where {@code nulls} says so. Keeps the four lanes in locals, rotated so that {@code h0} takes
   * the column's next item.
   */
  private void addLongs(int column, long[] values, int nullBase, int count, boolean[] nulls) {
    int base = column * LANES;
    int first = (int) (items[column] & (LANES - 1));
    long h0 = lanes[base + first];
    long h1 = lanes[base + ((first + 1) & 3)];
    long h2 = lanes[base + ((first + 2) & 3)];
    long h3 = lanes[base + ((first + 3) & 3)];
    int i = 0;
    if (nulls == null) {
      for (; i + LANES <= count; i += LANES) {
        h0 = mix(h0, values[i]);
        h1 = mix(h1, values[i + 1]);
        h2 = mix(h2, values[i + 2]);
        h3 = mix(h3, values[i + 3]);
      }
    } else {
      for (; i + LANES <= count; i += LANES) {
        int row = nullBase + i;
        h0 = mix(h0, nulls[row] ? NULL_MARK : values[i]);
        h1 = mix(h1, nulls[row + 1] ? NULL_MARK : values[i + 1]);
        h2 = mix(h2, nulls[row + 2] ? NULL_MARK : values[i + 2]);
        h3 = mix(h3, nulls[row + 3] ? NULL_MARK : values[i + 3]);
      }
    }
    for (; i < count; i++) {
      h0 = mix(h0, nulls != null && nulls[nullBase + i] ? NULL_MARK : values[i]);
      long next = h1; // the next item goes to the next lane: rotate
      h1 = h2;
      h2 = h3;
      h3 = h0;
      h0 = next;
    }
    int last = (int) ((items[column] + count) & (LANES - 1));
    lanes[base + last] = h0;
    lanes[base + ((last + 1) & 3)] = h1;
    lanes[base + ((last + 2) & 3)] = h2;
    lanes[base + ((last + 3) & 3)] = h3;
    items[column] += count;
  }

  private void addValue(int column, ColumnVector vector, int row) {
    CanonicalValues.add(this, column, vector, row);
  }

  public void addNull(int column) {
    feed(column, NULL_MARK);
  }

  public void addLong(int column, long value) {
    feed(column, value);
  }

  public void addDouble(int column, double value) {
    feed(column, canonical(value));
  }

  public void addBytes(int column, byte[] data, int offset, int length) {
    feed(column, bytesItem(data, offset, length));
  }

  private void feed(int column, long item) {
    int lane = column * LANES + (int) (items[column]++ & (LANES - 1));
    lanes[lane] = mix(lanes[lane], item);
  }

  /** Canonical NaN so that every NaN payload hashes alike; -0.0 and 0.0 stay distinct. */
  private static long canonical(double value) {
    return Double.isNaN(value) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(value);
  }

  /** One item for a variable-length value: its length, then its bytes as little-endian words. */
  private static long bytesItem(byte[] data, int offset, int length) {
    long h = length * K2;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = mix(h, (long) LONG_LE.get(data, offset + i));
    }
    long tail = 0;
    int left = length - i;
    if (left > 0 && data.length - (offset + i) >= 8) {
      // one word read, masked to the value's last bytes: the same little-endian tail
      tail = (long) LONG_LE.get(data, offset + i) & (-1L >>> (64 - 8 * left));
    } else {
      for (int shift = 0; i < length; i++, shift += 8) {
        tail |= (data[offset + i] & 0xFFL) << shift;
      }
    }
    return mix(h, tail);
  }

  /** Counts rows fed through the {@code add*} methods (batches count themselves). */
  public void addRows(long count) {
    rows += count;
  }

  public long rows() {
    return rows;
  }

  /** The combined hash of all columns, as 16 hex digits. */
  public String value() {
    long h = 0x84222325CBF29CE4L ^ items.length;
    for (int c = 0; c < items.length; c++) {
      h = avalanche(h, items[c]);
      for (int lane = 0; lane < LANES; lane++) {
        h = avalanche(h, lanes[c * LANES + lane]);
      }
    }
    return String.format("%016x", h);
  }

  /**
   * One step of a lane: a bijection of {@code h} for each item, whose dependency chain is an xor, a
   * rotation and a multiply (the item's own multiply is off the chain).
   */
  private static long mix(long h, long item) {
    return Long.rotateLeft(h ^ (item * K1), 29) * K2;
  }

  /** A full avalanche, for the final combination. */
  private static long avalanche(long h, long value) {
    long x = ((h + K1) ^ value) * 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    x *= 0xC4CEB9FE1A85EC53L;
    return x ^ (x >>> 29);
  }

  @Override
  public String toString() {
    return "Checksum[" + value() + ", rows=" + rows + ", items=" + Arrays.toString(items) + "]";
  }
}
