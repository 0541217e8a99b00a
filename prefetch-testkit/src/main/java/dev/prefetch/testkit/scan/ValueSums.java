package dev.prefetch.testkit.scan;

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
import dev.prefetch.testing.CanonicalValues;
import dev.prefetch.testkit.baseline.ValueSink;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * The lightest consumer that still touches every value of a scan: per column, the sum of its values
 * and the count of its nulls; a string or binary value adds a hash of its bytes. It stands for an
 * engine's cheapest full aggregate ({@code SELECT sum(a), sum(hash(s)), ...}) where the canonical
 * {@link dev.prefetch.testing.Checksum} stands for a content check: a checksum mixes every value
 * into four running hash lanes (a multiply and a rotation per value), this adds it. Timed scans
 * feed it so that the consumer costs no more per value than an engine's aggregate; correctness is
 * checked with the checksum before them.
 *
 * <p>Values are added in the canonical form of the checksum, so every reader of the same rows gets
 * the same sums whatever its vectors: integers of every width, booleans (0 or 1), dates, timestamps
 * and long-backed decimals as their long value; FLOAT32 and FLOAT64 as the bits of the value
 * widened to double (every NaN alike); strings, binaries and wide decimals (minimal big-endian
 * two's complement) as {@link #bytesHash}; a null adds nothing to the sum and one to the null
 * count; a list or map adds its length, then its elements (key, value, ...); a struct its fields. A
 * dictionary-encoded vector hashes each entry once per dictionary and then adds one hash per row,
 * as an engine aggregates a dictionary column.
 *
 * <p>The loops run over the vectors' primitive arrays, one type test per vector, so that an add
 * costs about one instruction where the JIT can vectorize it. Not thread-safe: one reader feeds it.
 */
public final class ValueSums implements ValueSink {

  private static final long K1 = 0x9E3779B97F4A7C15L;
  private static final long K2 = 0xC2B2AE3D27D4EB4FL;
  private static final long CANONICAL_NAN = 0x7ff8000000000000L;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long[] sums;
  private final long[] nulls;
  private long rows;

  /** Per column, the dictionary whose entries' hashes {@link #dictionaryHashes} holds. */
  private final BinaryVector[] dictionaries;

  private final long[][] dictionaryHashes;

  /**
   * @param columns the top-level columns fed
   */
  public ValueSums(int columns) {
    if (columns < 0) {
      throw new IllegalArgumentException("columns must not be negative: " + columns);
    }
    this.sums = new long[columns];
    this.nulls = new long[columns];
    this.dictionaries = new BinaryVector[columns];
    this.dictionaryHashes = new long[columns][];
  }

  /** The columns fed. */
  public int columns() {
    return sums.length;
  }

  /** Adds every value of {@code batch} and counts its rows. */
  public void add(RecordBatch batch) {
    if (batch.columns().size() != sums.length) {
      throw new IllegalArgumentException(
          "sums of " + sums.length + " columns fed a batch of " + batch.columns().size());
    }
    int count = batch.rowCount();
    for (int c = 0; c < sums.length; c++) {
      addColumn(c, batch.column(c), count);
    }
    rows += count;
  }

  /** One type test per vector, then a loop over its array. */
  private void addColumn(int column, ColumnVector vector, int count) {
    boolean[] mask = vector.nullMask();
    if (vector instanceof LongVector v) {
      addLongs(column, v.values(), 0, count, mask, 0);
    } else if (vector instanceof DecimalVector v && v.isLongBacked()) {
      addLongs(column, v.unscaledLongs(), 0, count, mask, 0);
    } else if (vector instanceof IntVector v) {
      addInts(column, v.values(), 0, count, mask, 0);
    } else if (vector instanceof DoubleVector v) {
      addDoubles(column, v.values(), 0, count, mask, 0);
    } else if (vector instanceof FloatVector v) {
      addFloats(column, v.values(), 0, count, mask, 0);
    } else if (vector instanceof BooleanVector v) {
      addBooleans(column, v.values(), 0, count, mask, 0);
    } else if (vector instanceof BinaryVector v) {
      addBinaries(column, v.data(), v.offsets(), 0, count, mask, 0);
    } else if (vector instanceof DictionaryVector v) {
      addDictionaryIds(column, v.ids(), 0, count, mask, 0, entryHashes(column, v.dictionary()));
    } else {
      for (int row = 0; row < count; row++) {
        addValue(column, vector, row);
      }
    }
  }

  /**
   * Adds {@code values[offset..offset+count-1]}; the value at {@code offset + i} is null where
   * {@code nulls[nullOffset + i]} (no value is when {@code nulls} is null).
   */
  public void addLongs(
      int column, long[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    if (nulls == null) {
      for (int i = 0; i < count; i++) {
        sum += values[offset + i];
      }
    } else {
      long none = 0;
      for (int i = 0; i < count; i++) {
        boolean isNull = nulls[nullOffset + i];
        sum += isNull ? 0 : values[offset + i];
        none += isNull ? 1 : 0;
      }
      this.nulls[column] += none;
    }
    sums[column] += sum;
  }

  /** As {@link #addLongs}, for int values (INT32, DATE, ...). */
  public void addInts(
      int column, int[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    if (nulls == null) {
      for (int i = 0; i < count; i++) {
        sum += values[offset + i];
      }
    } else {
      long none = 0;
      for (int i = 0; i < count; i++) {
        boolean isNull = nulls[nullOffset + i];
        sum += isNull ? 0 : values[offset + i];
        none += isNull ? 1 : 0;
      }
      this.nulls[column] += none;
    }
    sums[column] += sum;
  }

  /** As {@link #addLongs}, for doubles: each adds its bits (every NaN alike). */
  public void addDoubles(
      int column, double[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    if (nulls == null) {
      for (int i = 0; i < count; i++) {
        sum += bits(values[offset + i]);
      }
    } else {
      long none = 0;
      for (int i = 0; i < count; i++) {
        boolean isNull = nulls[nullOffset + i];
        sum += isNull ? 0 : bits(values[offset + i]);
        none += isNull ? 1 : 0;
      }
      this.nulls[column] += none;
    }
    sums[column] += sum;
  }

  /** As {@link #addLongs}, for floats: each adds the bits of its value widened to double. */
  public void addFloats(
      int column, float[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    if (nulls == null) {
      for (int i = 0; i < count; i++) {
        sum += bits(values[offset + i]);
      }
    } else {
      long none = 0;
      for (int i = 0; i < count; i++) {
        boolean isNull = nulls[nullOffset + i];
        sum += isNull ? 0 : bits(values[offset + i]);
        none += isNull ? 1 : 0;
      }
      this.nulls[column] += none;
    }
    sums[column] += sum;
  }

  /**
   * As {@link #addFloats}, for floats given as their IEEE 754 bits ({@link Float#intBitsToFloat}),
   * as some readers hold them.
   */
  public void addFloatBits(
      int column, int[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      boolean isNull = nulls != null && nulls[nullOffset + i];
      sum += isNull ? 0 : bits(Float.intBitsToFloat(values[offset + i]));
      none += isNull ? 1 : 0;
    }
    this.nulls[column] += none;
    sums[column] += sum;
  }

  /** As {@link #addLongs}, for booleans: true adds 1. */
  public void addBooleans(
      int column, boolean[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      boolean isNull = nulls != null && nulls[nullOffset + i];
      sum += !isNull && values[offset + i] ? 1 : 0;
      none += isNull ? 1 : 0;
    }
    this.nulls[column] += none;
    sums[column] += sum;
  }

  /**
   * As {@link #addLongs}, for small integers given as bytes (a boolean as 0 or 1, a TINYINT); each
   * adds its signed value.
   */
  public void addBytesAsIntegers(
      int column, byte[] values, int offset, int count, boolean[] nulls, int nullOffset) {
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      boolean isNull = nulls != null && nulls[nullOffset + i];
      sum += isNull ? 0 : values[offset + i];
      none += isNull ? 1 : 0;
    }
    this.nulls[column] += none;
    sums[column] += sum;
  }

  /**
   * Adds the hashes of {@code count} variable-length values: value {@code i} is the bytes of {@code
   * data} from {@code offsets[offset + i]} to {@code offsets[offset + i + 1]}.
   */
  public void addBinaries(
      int column,
      byte[] data,
      int[] offsets,
      int offset,
      int count,
      boolean[] nulls,
      int nullOffset) {
    long sum = 0;
    long none = 0;
    for (int i = 0; i < count; i++) {
      if (nulls != null && nulls[nullOffset + i]) {
        none++;
        continue;
      }
      int start = offsets[offset + i];
      sum += bytesHash(data, start, offsets[offset + i + 1] - start);
    }
    this.nulls[column] += none;
    sums[column] += sum;
  }

  /**
   * Adds one entry's hash per row: {@code hashes[ids[offset + i]]}, where {@code hashes} holds
   * {@link #bytesHash} of each dictionary entry (see {@link #dictionaryHashes(byte[], int[],
   * int)}). The id of a null row is not read.
   */
  public void addDictionaryIds(
      int column,
      int[] ids,
      int offset,
      int count,
      boolean[] nulls,
      int nullOffset,
      long[] hashes) {
    long sum = 0;
    if (nulls == null) {
      for (int i = 0; i < count; i++) {
        sum += hashes[ids[offset + i]];
      }
    } else {
      long none = 0;
      for (int i = 0; i < count; i++) {
        if (nulls[nullOffset + i]) {
          none++;
        } else {
          sum += hashes[ids[offset + i]];
        }
      }
      this.nulls[column] += none;
    }
    sums[column] += sum;
  }

  /**
   * The hash of each of {@code entries} variable-length values laid out as {@link #addBinaries}'s.
   */
  public static long[] dictionaryHashes(byte[] data, int[] offsets, int entries) {
    long[] hashes = new long[entries];
    for (int e = 0; e < entries; e++) {
      hashes[e] = bytesHash(data, offsets[e], offsets[e + 1] - offsets[e]);
    }
    return hashes;
  }

  /** The entries' hashes of a column's dictionary, computed once per dictionary. */
  private long[] entryHashes(int column, BinaryVector dictionary) {
    if (dictionaries[column] != dictionary) {
      dictionaryHashes[column] =
          dictionaryHashes(dictionary.data(), dictionary.offsets(), dictionary.size());
      dictionaries[column] = dictionary;
    }
    return dictionaryHashes[column];
  }

  private void addValue(int column, ColumnVector vector, int row) {
    CanonicalValues.add(this, column, vector, row);
  }

  @Override
  public void addNull(int column) {
    nulls[column]++;
  }

  @Override
  public void addLong(int column, long value) {
    sums[column] += value;
  }

  @Override
  public void addDouble(int column, double value) {
    sums[column] += bits(value);
  }

  @Override
  public void addBytes(int column, byte[] data, int offset, int length) {
    sums[column] += bytesHash(data, offset, length);
  }

  /**
   * Adds a sum and a null count that the caller computed over values of its own layout, each in the
   * canonical form above (a reader whose arrays this class has no loop for: {@link #doubleItem} and
   * {@link #bytesHash} give the items).
   */
  public void addPartial(int column, long sum, long nullCount) {
    sums[column] += sum;
    nulls[column] += nullCount;
  }

  /** Counts rows fed through the per-value and per-array methods (batches count themselves). */
  public void addRows(long count) {
    rows += count;
  }

  public long rows() {
    return rows;
  }

  /** The sum of column {@code column}'s values (strings: of their hashes). */
  public long sum(int column) {
    return sums[column];
  }

  /** The nulls of column {@code column}. */
  public long nulls(int column) {
    return nulls[column];
  }

  /** Every column's sum and null count, and the rows, mixed into 16 hex digits. */
  public String value() {
    long h = K1 ^ sums.length;
    h = avalanche(h, rows);
    for (int c = 0; c < sums.length; c++) {
      h = avalanche(h, sums[c]);
      h = avalanche(h, nulls[c]);
    }
    return String.format(Locale.ROOT, "%016x", h);
  }

  /** The item of a FLOAT32 or FLOAT64 value: its bits as a double, every NaN alike. */
  public static long doubleItem(double value) {
    return bits(value);
  }

  private static long bits(double value) {
    return Double.isNaN(value) ? CANONICAL_NAN : Double.doubleToRawLongBits(value);
  }

  /**
   * A hash of {@code length} bytes: the length, then one multiply per 8-byte little-endian word
   * (the last word masked to the value's bytes), then a shift to spread the high bits.
   */
  public static long bytesHash(byte[] data, int offset, int length) {
    long h = length * K2;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = (h ^ (long) LONG_LE.get(data, offset + i)) * K1;
    }
    int left = length - i;
    if (left > 0) {
      long tail = 0;
      if (data.length - (offset + i) >= 8) {
        // one word read, masked to the value's last bytes
        tail = (long) LONG_LE.get(data, offset + i) & (-1L >>> (64 - 8 * left));
      } else {
        for (int shift = 0; i < length; i++, shift += 8) {
          tail |= (data[offset + i] & 0xFFL) << shift;
        }
      }
      h = (h ^ tail) * K1;
    }
    return h ^ (h >>> 31);
  }

  private static long avalanche(long h, long value) {
    long x = ((h + K1) ^ value) * 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    x *= 0xC4CEB9FE1A85EC53L;
    return x ^ (x >>> 29);
  }

  @Override
  public String toString() {
    return "ValueSums[" + value() + ", rows=" + rows + "]";
  }
}
