package dev.prefetch.batch;

import java.util.Arrays;

/**
 * A content hash over every value of a read, in row order, that does not depend on how the rows
 * were cut into batches (or on how many threads read them).
 *
 * <p>Each top-level column keeps its own running 64-bit hash fed value by value in row order; the
 * result combines the columns' hashes in column order. Values are fed in a canonical form, so a
 * reader that is not built on {@link RecordBatch} (a format library's own reader, in a benchmark)
 * can produce the same checksum through the {@code add*} methods:
 * <ul>
 *   <li>booleans and all integer kinds (and DATE, TIME, TIMESTAMP, long-backed DECIMAL) as
 *       {@link #addLong}; FLOAT32 and FLOAT64 as {@link #addDouble} of the value widened to double;
 *   <li>STRING, BINARY, FIXED_BINARY as {@link #addBytes}; wide DECIMAL as {@link #addBytes} of the
 *       minimal big-endian two's complement unscaled value;
 *   <li>a null as {@link #addNull};
 *   <li>a LIST or MAP as {@link #addLong} of its length, then its elements (key, value, key, ...);
 *       a STRUCT as its fields in order.
 * </ul>
 * Not thread-safe: one reader feeds it.
 */
public final class Checksum {

  private static final long NULL_MARK = 0x5BD1E9955BD1E995L;

  private final long[] hashes;
  private long rows;

  public Checksum(int columns) {
    this.hashes = new long[columns];
  }

  /** Feeds every value of {@code batch}, row after row per column. */
  public void add(RecordBatch batch) {
    if (batch.columns().size() != hashes.length) {
      throw new IllegalArgumentException("checksum of " + hashes.length
          + " columns fed a batch of " + batch.columns().size());
    }
    for (int c = 0; c < hashes.length; c++) {
      addColumn(c, batch.column(c), batch.rowCount());
    }
    rows += batch.rowCount();
  }

  /** One type test per vector, then a typed loop: the checksum must not dominate a timed scan. */
  private void addColumn(int column, ColumnVector vector, int count) {
    long h = hashes[column];
    if (vector instanceof LongVector v) {
      long[] values = v.values();
      for (int row = 0; row < count; row++) {
        h = mix(h, v.isNull(row) ? NULL_MARK : values[row]);
      }
    } else if (vector instanceof IntVector v) {
      int[] values = v.values();
      for (int row = 0; row < count; row++) {
        h = mix(h, v.isNull(row) ? NULL_MARK : values[row]);
      }
    } else if (vector instanceof DoubleVector v) {
      double[] values = v.values();
      for (int row = 0; row < count; row++) {
        h = mix(h, v.isNull(row) ? NULL_MARK : canonical(values[row]));
      }
    } else if (vector instanceof DecimalVector v && v.isLongBacked()) {
      long[] values = v.unscaledLongs();
      for (int row = 0; row < count; row++) {
        h = mix(h, v.isNull(row) ? NULL_MARK : values[row]);
      }
    } else {
      for (int row = 0; row < count; row++) {
        addValue(column, vector, row);
      }
      return;
    }
    hashes[column] = h;
  }

  private void addValue(int column, ColumnVector vector, int row) {
    if (vector.isNull(row)) {
      addNull(column);
      return;
    }
    if (vector instanceof LongVector v) {
      addLong(column, v.get(row));
    } else if (vector instanceof IntVector v) {
      addLong(column, v.get(row));
    } else if (vector instanceof DoubleVector v) {
      addDouble(column, v.get(row));
    } else if (vector instanceof BinaryVector v) {
      addBytes(column, v.data(), v.start(row), v.length(row));
    } else if (vector instanceof BooleanVector v) {
      addLong(column, v.get(row) ? 1 : 0);
    } else if (vector instanceof FloatVector v) {
      addDouble(column, v.get(row));
    } else if (vector instanceof ShortVector v) {
      addLong(column, v.get(row));
    } else if (vector instanceof ByteVector v) {
      addLong(column, v.get(row));
    } else if (vector instanceof DecimalVector v) {
      if (v.isLongBacked()) {
        addLong(column, v.getUnscaledLong(row));
      } else {
        byte[] bytes = v.getUnscaled(row).toByteArray();
        addBytes(column, bytes, 0, bytes.length);
      }
    } else if (vector instanceof ListVector v) {
      addLong(column, v.length(row));
      for (int i = v.start(row); i < v.start(row) + v.length(row); i++) {
        addValue(column, v.elements(), i);
      }
    } else if (vector instanceof MapVector v) {
      addLong(column, v.length(row));
      for (int i = v.start(row); i < v.start(row) + v.length(row); i++) {
        addValue(column, v.keys(), i);
        addValue(column, v.values(), i);
      }
    } else if (vector instanceof StructVector v) {
      for (ColumnVector child : v.children()) {
        addValue(column, child, row);
      }
    } else {
      throw new IllegalStateException("unknown vector " + vector.getClass().getName());
    }
  }

  public void addNull(int column) {
    hashes[column] = mix(hashes[column], NULL_MARK);
  }

  public void addLong(int column, long value) {
    hashes[column] = mix(hashes[column], value);
  }

  public void addDouble(int column, double value) {
    addLong(column, canonical(value));
  }

  /** Canonical NaN so that every NaN payload hashes alike; -0.0 and 0.0 stay distinct. */
  private static long canonical(double value) {
    return Double.isNaN(value) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(value);
  }

  public void addBytes(int column, byte[] data, int offset, int length) {
    long h = mix(hashes[column], length);
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      long word = 0;
      for (int b = 0; b < 8; b++) {
        word = (word << 8) | (data[offset + i + b] & 0xFFL);
      }
      h = mix(h, word);
    }
    long tail = 0;
    for (; i < length; i++) {
      tail = (tail << 8) | (data[offset + i] & 0xFFL);
    }
    hashes[column] = mix(h, tail);
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
    long h = 0x84222325CBF29CE4L ^ hashes.length;
    for (long column : hashes) {
      h = mix(h, column);
    }
    return String.format("%016x", h);
  }

  private static long mix(long h, long value) {
    long x = ((h + 0x9E3779B97F4A7C15L) ^ value) * 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    x *= 0xC4CEB9FE1A85EC53L;
    return x ^ (x >>> 29);
  }

  @Override
  public String toString() {
    return "Checksum[" + value() + ", rows=" + rows + ", columns=" + Arrays.toString(hashes) + "]";
  }
}
