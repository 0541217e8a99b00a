package dev.prefetch.spark.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.DataType.TimeUnit;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.ShortVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Arrays;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The wrappers of flat columns: integers, floating point, booleans, timestamps, decimals, strings
 * and binaries, plain or dictionary-encoded (see {@link SparkColumns} for the conversions).
 */
final class PrimitiveColumns {

  private PrimitiveColumns() {}

  /**
   * Booleans, integers of every width, floating point, DATE (days since the epoch, as Spark counts
   * them) and timestamps already in microseconds.
   *
   * <p>One class rather than one per type: a Spark call site that reads several columns sees a
   * single receiver class, and each getter stays an array read behind a well-predicted null test.
   * Exactly one array is set, the one of the vector's own type; a getter of another type finds its
   * array null and throws as every unsupported accessor does.
   */
  static final class FixedWidthColumn extends WrappedColumn {
    private final boolean[] booleans;
    private final byte[] bytes;
    private final short[] shorts;
    private final int[] ints;
    private final long[] longs;
    private final float[] floats;
    private final double[] doubles;

    FixedWidthColumn(DataType type, dev.prefetch.batch.ColumnVector vector) {
      super(type, vector);
      booleans = vector instanceof BooleanVector v ? v.values() : null;
      bytes = vector instanceof ByteVector v ? v.values() : null;
      shorts = vector instanceof ShortVector v ? v.values() : null;
      ints = vector instanceof IntVector v ? v.values() : null;
      longs = vector instanceof LongVector v ? v.values() : null;
      floats = vector instanceof FloatVector v ? v.values() : null;
      doubles = vector instanceof DoubleVector v ? v.values() : null;
    }

    @Override
    public boolean getBoolean(int rowId) {
      return booleans != null ? booleans[rowId] : super.getBoolean(rowId);
    }

    @Override
    public byte getByte(int rowId) {
      return bytes != null ? bytes[rowId] : super.getByte(rowId);
    }

    @Override
    public short getShort(int rowId) {
      return shorts != null ? shorts[rowId] : super.getShort(rowId);
    }

    @Override
    public int getInt(int rowId) {
      return ints != null ? ints[rowId] : super.getInt(rowId);
    }

    @Override
    public int[] getInts(int rowId, int count) {
      return ints != null
          ? Arrays.copyOfRange(ints, rowId, rowId + count)
          : super.getInts(rowId, count);
    }

    @Override
    public long getLong(int rowId) {
      return longs != null ? longs[rowId] : super.getLong(rowId);
    }

    @Override
    public long[] getLongs(int rowId, int count) {
      return longs != null
          ? Arrays.copyOfRange(longs, rowId, rowId + count)
          : super.getLongs(rowId, count);
    }

    @Override
    public float getFloat(int rowId) {
      return floats != null ? floats[rowId] : super.getFloat(rowId);
    }

    @Override
    public double getDouble(int rowId) {
      return doubles != null ? doubles[rowId] : super.getDouble(rowId);
    }
  }

  /** Timestamps in milliseconds or nanoseconds, or local date-times read as instants. */
  static final class TimestampColumn extends WrappedColumn {
    private final long[] values;
    private final TimeUnit unit;
    private final ZoneRules localZone;

    TimestampColumn(DataType type, LongVector vector, TimeUnit unit, ZoneRules localZone) {
      super(type, vector);
      this.values = vector.values();
      this.unit = unit;
      this.localZone = localZone;
    }

    @Override
    public long getLong(int rowId) {
      long v = values[rowId];
      long micros =
          switch (unit) {
            case MILLIS -> Math.multiplyExact(v, 1000L);
            case MICROS -> v;
            case NANOS -> Math.floorDiv(v, 1000L);
          };
      if (localZone == null) {
        return micros;
      }
      // micros is a wall clock read as UTC; find the instant showing that wall clock here.
      long seconds = Math.floorDiv(micros, 1_000_000L);
      java.time.LocalDateTime wall =
          java.time.LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
      int offset =
          localZone.getValidOffsets(wall).isEmpty()
              ? localZone.getOffset(wall.toInstant(ZoneOffset.UTC)).getTotalSeconds()
              : localZone.getOffset(wall).getTotalSeconds();
      return micros - offset * 1_000_000L;
    }
  }

  static final class DecimalColumn extends WrappedColumn {
    private final DecimalVector vector;
    private final long[] unscaled;

    DecimalColumn(DataType type, DecimalVector vector) {
      super(type, vector);
      this.vector = vector;
      this.unscaled = vector.isLongBacked() ? vector.unscaledLongs() : null;
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      if (isNullAt(rowId)) {
        return null;
      }
      int fileScale = vector.type().scale();
      if (unscaled != null && scale == fileScale && precision <= Decimal.MAX_LONG_DIGITS()) {
        return Decimal.createUnsafe(unscaled[rowId], precision, scale);
      }
      BigDecimal value =
          unscaled != null
              ? BigDecimal.valueOf(unscaled[rowId], fileScale)
              : new BigDecimal(
                  new BigInteger(
                      vector.data(),
                      vector.offsets()[rowId],
                      vector.offsets()[rowId + 1] - vector.offsets()[rowId]),
                  fileScale);
      return Decimal.apply(value, precision, scale);
    }

    @Override
    public int getInt(int rowId) {
      return Math.toIntExact(unscaledLong(rowId));
    }

    @Override
    public long getLong(int rowId) {
      return unscaledLong(rowId);
    }

    private long unscaledLong(int rowId) {
      if (unscaled == null) {
        throw new UnsupportedOperationException(
            "unscaled long of a " + vector.type() + " column held as bytes");
      }
      return unscaled[rowId];
    }
  }

  /** STRING, BINARY and FIXED_BINARY: strings are views of the byte buffer. */
  static final class BinaryColumn extends WrappedColumn {
    private final byte[] data;
    private final int[] offsets;

    BinaryColumn(DataType type, BinaryVector vector) {
      super(type, vector);
      this.data = vector.data();
      this.offsets = vector.offsets();
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      int start = offsets[rowId];
      return UTF8String.fromBytes(data, start, offsets[rowId + 1] - start);
    }

    @Override
    public byte[] getBinary(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      return Arrays.copyOfRange(data, offsets[rowId], offsets[rowId + 1]);
    }
  }

  /**
   * Dictionary-encoded STRING, BINARY and FIXED_BINARY: row {@code i} is entry {@code ids[i]} of
   * the dictionary, read in place. A string is a {@link UTF8String} over the dictionary's byte
   * array at the entry's offset and length, so no row copies its bytes and every row of one id
   * shares them; binary values are copied, as for {@link BinaryColumn}, since Spark's API returns a
   * fresh array.
   *
   * <p>Spark's public {@link org.apache.spark.sql.vectorized.ColumnVector} has no dictionary
   * accessor. Its dictionary notion ({@code hasDictionary}, {@code getDictionaryIds}, the {@code
   * Dictionary} interface) lives on {@code WritableColumnVector} in the internal {@code
   * org.apache.spark.sql.execution.vectorized} package, a writable vector that Spark's own Parquet
   * reader fills and alone reads the ids of; its getters hand out a fresh copy of the row's entry
   * ({@code Dictionary.decodeToBinary}). A read-only wrapper has nothing public to implement, so
   * this one keeps the ids and each row reads its entry in place. Since the dictionary outlives the
   * batch (see {@link DictionaryVector}), a string read here stays valid after the batch is
   * released.
   */
  static final class DictionaryColumn extends WrappedColumn {
    private final int[] ids;
    private final byte[] entries;
    private final int[] entryOffsets;

    DictionaryColumn(DataType type, DictionaryVector vector) {
      super(type, vector);
      this.ids = vector.ids();
      this.entries = vector.dictionary().data();
      this.entryOffsets = vector.dictionary().offsets();
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      // A null row's id is unspecified (it may lie outside the dictionary): test nulls first.
      if (isNullAt(rowId)) {
        return null;
      }
      int id = ids[rowId];
      int start = entryOffsets[id];
      return UTF8String.fromBytes(entries, start, entryOffsets[id + 1] - start);
    }

    @Override
    public byte[] getBinary(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      int id = ids[rowId];
      return Arrays.copyOfRange(entries, entryOffsets[id], entryOffsets[id + 1]);
    }
  }
}
