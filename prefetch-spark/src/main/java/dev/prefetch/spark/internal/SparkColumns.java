package dev.prefetch.spark.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.DataType.Kind;
import dev.prefetch.batch.DataType.TimeUnit;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Arrays;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark {@link ColumnVector}s over our vectors, without copying: each wrapper reads the arrays of
 * the vector it wraps, so it is valid exactly as long as that vector's batch is not released.
 *
 * <p>{@link #wrap} pairs one of our vectors with the Spark type the table declares for the column
 * (the type Spark's own reader infers for the file) and picks the wrapper; a pair that has no
 * faithful conversion is an {@link IllegalArgumentException} naming both types. Conversions done
 * per value, where Spark's representation differs from ours:
 *
 * <ul>
 *   <li>timestamps: milliseconds and nanoseconds to Spark's microseconds (nanoseconds rounded
 *       towards negative infinity, as Spark does); a local date-time (ORC's plain {@code
 *       timestamp}, held as its wall clock read as UTC) declared as Spark's {@code TIMESTAMP} is
 *       the instant of that wall clock in the JVM's time zone, as orc-core gives it to Spark's ORC
 *       reader;
 *   <li>decimals: unscaled longs as {@link Decimal#createUnsafe} up to 18 digits, otherwise a
 *       {@code BigDecimal} of the requested precision and scale;
 *   <li>strings: {@link UTF8String} views of the vector's byte buffer (no copy); binary values are
 *       copied, since Spark's API returns a fresh {@code byte[]}.
 * </ul>
 */
public final class SparkColumns {

  private SparkColumns() {}

  /** A Spark column over {@code vector}, typed as {@code sparkType}. */
  public static ColumnVector wrap(dev.prefetch.batch.ColumnVector vector, DataType sparkType) {
    return wrap(vector, sparkType, ZoneId.systemDefault());
  }

  /**
   * As {@link #wrap(dev.prefetch.batch.ColumnVector, DataType)}, with {@code zone} as the time zone
   * local date-times read as instants are placed in.
   */
  static ColumnVector wrap(
      dev.prefetch.batch.ColumnVector vector, DataType sparkType, ZoneId zone) {
    Kind kind = vector.type().kind();
    if (sparkType instanceof BooleanType && kind == Kind.BOOLEAN) {
      return new BooleanColumn(sparkType, (BooleanVector) vector);
    }
    if (sparkType instanceof ByteType && kind == Kind.INT8) {
      return new ByteColumn(sparkType, (ByteVector) vector);
    }
    if (sparkType instanceof ShortType && kind == Kind.INT16) {
      return new ShortColumn(sparkType, (ShortVector) vector);
    }
    if ((sparkType instanceof IntegerType && kind == Kind.INT32)
        || (sparkType instanceof DateType && kind == Kind.DATE)) {
      return new IntColumn(sparkType, (IntVector) vector);
    }
    if ((sparkType instanceof LongType || sparkType instanceof TimestampNTZType)
        && kind == Kind.INT64) {
      // Spark writes TIMESTAMP_NTZ to ORC as a bigint of microseconds (marked by an attribute).
      return new LongColumn(sparkType, (LongVector) vector);
    }
    if (sparkType instanceof FloatType && kind == Kind.FLOAT32) {
      return new FloatColumn(sparkType, (FloatVector) vector);
    }
    if (sparkType instanceof DoubleType && kind == Kind.FLOAT64) {
      return new DoubleColumn(sparkType, (DoubleVector) vector);
    }
    if (sparkType instanceof DecimalType && kind == Kind.DECIMAL) {
      return new DecimalColumn(sparkType, (DecimalVector) vector);
    }
    if ((sparkType instanceof TimestampType || sparkType instanceof TimestampNTZType)
        && kind == Kind.TIMESTAMP) {
      return timestamp(sparkType, (LongVector) vector, zone);
    }
    if ((sparkType instanceof StringType || sparkType instanceof BinaryType)
        && (kind == Kind.STRING || kind == Kind.BINARY || kind == Kind.FIXED_BINARY)) {
      return new BinaryColumn(sparkType, (BinaryVector) vector);
    }
    if (sparkType instanceof ArrayType array && kind == Kind.LIST) {
      ListVector list = (ListVector) vector;
      return new ListColumn(sparkType, list, wrap(list.elements(), array.elementType(), zone));
    }
    if (sparkType instanceof MapType map && kind == Kind.MAP) {
      MapVector m = (MapVector) vector;
      return new MapColumn(
          sparkType,
          m,
          wrap(m.keys(), map.keyType(), zone),
          wrap(m.values(), map.valueType(), zone));
    }
    if (sparkType instanceof StructType struct && kind == Kind.STRUCT) {
      StructVector s = (StructVector) vector;
      StructField[] fields = struct.fields();
      if (fields.length != s.children().size()) {
        throw new IllegalArgumentException(
            "struct "
                + struct.simpleString()
                + " has "
                + fields.length
                + " fields, the file's "
                + vector.type()
                + " has "
                + s.children().size());
      }
      ColumnVector[] children = new ColumnVector[fields.length];
      for (int i = 0; i < fields.length; i++) {
        children[i] = wrap(s.child(i), fields[i].dataType(), zone);
      }
      return new StructColumn(sparkType, s, children);
    }
    throw new IllegalArgumentException(
        "cannot read a column of type "
            + vector.type()
            + " as Spark type "
            + sparkType.simpleString());
  }

  /** Whether {@link #wrap} can read values of {@code type} as {@code sparkType}. */
  public static boolean convertible(dev.prefetch.batch.DataType type, DataType sparkType) {
    Kind kind = type.kind();
    if (sparkType instanceof ArrayType array) {
      return kind == Kind.LIST && convertible(type.elementField().type(), array.elementType());
    }
    if (sparkType instanceof MapType map) {
      return kind == Kind.MAP
          && convertible(type.keyField().type(), map.keyType())
          && convertible(type.valueField().type(), map.valueType());
    }
    if (sparkType instanceof StructType struct) {
      if (kind != Kind.STRUCT || struct.fields().length != type.children().size()) {
        return false;
      }
      for (int i = 0; i < struct.fields().length; i++) {
        if (!convertible(type.children().get(i).type(), struct.fields()[i].dataType())) {
          return false;
        }
      }
      return true;
    }
    return (sparkType instanceof BooleanType && kind == Kind.BOOLEAN)
        || (sparkType instanceof ByteType && kind == Kind.INT8)
        || (sparkType instanceof ShortType && kind == Kind.INT16)
        || (sparkType instanceof IntegerType && kind == Kind.INT32)
        || (sparkType instanceof DateType && kind == Kind.DATE)
        || ((sparkType instanceof LongType || sparkType instanceof TimestampNTZType)
            && kind == Kind.INT64)
        || (sparkType instanceof FloatType && kind == Kind.FLOAT32)
        || (sparkType instanceof DoubleType && kind == Kind.FLOAT64)
        || (sparkType instanceof DecimalType && kind == Kind.DECIMAL)
        || ((sparkType instanceof TimestampType || sparkType instanceof TimestampNTZType)
            && kind == Kind.TIMESTAMP)
        || ((sparkType instanceof StringType || sparkType instanceof BinaryType)
            && (kind == Kind.STRING || kind == Kind.BINARY || kind == Kind.FIXED_BINARY));
  }

  private static ColumnVector timestamp(DataType sparkType, LongVector vector, ZoneId zone) {
    TimeUnit unit = vector.type().timeUnit();
    boolean localAsInstant = sparkType instanceof TimestampType && !vector.type().utcAdjusted();
    ZoneRules rules = localAsInstant ? zone.normalized().getRules() : null;
    if (rules != null
        && rules.isFixedOffset()
        && rules.getOffset(java.time.Instant.EPOCH).equals(ZoneOffset.UTC)) {
      rules = null;
    }
    if (unit == TimeUnit.MICROS && rules == null) {
      return new LongColumn(sparkType, vector);
    }
    return new TimestampColumn(sparkType, vector, unit, rules);
  }

  /** Nulls and the unsupported accessors, shared by every wrapper. */
  abstract static class WrappedColumn extends ColumnVector {
    private final dev.prefetch.batch.ColumnVector source;
    private int numNulls = -1;

    WrappedColumn(DataType type, dev.prefetch.batch.ColumnVector source) {
      super(type);
      this.source = source;
    }

    @Override
    public final boolean hasNull() {
      return source.mayHaveNulls() && numNulls() > 0;
    }

    @Override
    public final int numNulls() {
      if (numNulls < 0) {
        boolean[] mask = source.nullMask();
        int count = 0;
        if (mask != null) {
          for (int i = 0, n = source.size(); i < n; i++) {
            if (mask[i]) {
              count++;
            }
          }
        }
        numNulls = count;
      }
      return numNulls;
    }

    @Override
    public final boolean isNullAt(int rowId) {
      return source.isNull(rowId);
    }

    @Override
    public void close() {
      // The wrapped arrays belong to our batch; the partition reader releases it.
    }

    private UnsupportedOperationException unsupported(String what) {
      return new UnsupportedOperationException(
          what + " on a " + dataType().simpleString() + " column");
    }

    @Override
    public boolean getBoolean(int rowId) {
      throw unsupported("getBoolean");
    }

    @Override
    public byte getByte(int rowId) {
      throw unsupported("getByte");
    }

    @Override
    public short getShort(int rowId) {
      throw unsupported("getShort");
    }

    @Override
    public int getInt(int rowId) {
      throw unsupported("getInt");
    }

    @Override
    public long getLong(int rowId) {
      throw unsupported("getLong");
    }

    @Override
    public float getFloat(int rowId) {
      throw unsupported("getFloat");
    }

    @Override
    public double getDouble(int rowId) {
      throw unsupported("getDouble");
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      throw unsupported("getArray");
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
      throw unsupported("getMap");
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      throw unsupported("getDecimal");
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
      throw unsupported("getUTF8String");
    }

    @Override
    public byte[] getBinary(int rowId) {
      throw unsupported("getBinary");
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      throw unsupported("getChild");
    }
  }

  static final class BooleanColumn extends WrappedColumn {
    private final boolean[] values;

    BooleanColumn(DataType type, BooleanVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public boolean getBoolean(int rowId) {
      return values[rowId];
    }
  }

  static final class ByteColumn extends WrappedColumn {
    private final byte[] values;

    ByteColumn(DataType type, ByteVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public byte getByte(int rowId) {
      return values[rowId];
    }
  }

  static final class ShortColumn extends WrappedColumn {
    private final short[] values;

    ShortColumn(DataType type, ShortVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public short getShort(int rowId) {
      return values[rowId];
    }
  }

  /** INT32 and DATE (days since the epoch, as Spark counts them). */
  static final class IntColumn extends WrappedColumn {
    private final int[] values;

    IntColumn(DataType type, IntVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public int getInt(int rowId) {
      return values[rowId];
    }

    @Override
    public int[] getInts(int rowId, int count) {
      return Arrays.copyOfRange(values, rowId, rowId + count);
    }
  }

  /** INT64, and timestamps already in microseconds. */
  static final class LongColumn extends WrappedColumn {
    private final long[] values;

    LongColumn(DataType type, LongVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public long getLong(int rowId) {
      return values[rowId];
    }

    @Override
    public long[] getLongs(int rowId, int count) {
      return Arrays.copyOfRange(values, rowId, rowId + count);
    }
  }

  static final class FloatColumn extends WrappedColumn {
    private final float[] values;

    FloatColumn(DataType type, FloatVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public float getFloat(int rowId) {
      return values[rowId];
    }
  }

  static final class DoubleColumn extends WrappedColumn {
    private final double[] values;

    DoubleColumn(DataType type, DoubleVector vector) {
      super(type, vector);
      this.values = vector.values();
    }

    @Override
    public double getDouble(int rowId) {
      return values[rowId];
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

  static final class ListColumn extends WrappedColumn {
    private final int[] offsets;
    private final ColumnVector elements;

    ListColumn(DataType type, ListVector vector, ColumnVector elements) {
      super(type, vector);
      this.offsets = vector.offsets();
      this.elements = elements;
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      return new ColumnarArray(elements, offsets[rowId], offsets[rowId + 1] - offsets[rowId]);
    }

    @Override
    public void close() {
      elements.close();
    }
  }

  static final class MapColumn extends WrappedColumn {
    private final int[] offsets;
    private final ColumnVector keys;
    private final ColumnVector values;

    MapColumn(DataType type, MapVector vector, ColumnVector keys, ColumnVector values) {
      super(type, vector);
      this.offsets = vector.offsets();
      this.keys = keys;
      this.values = values;
    }

    @Override
    public ColumnarMap getMap(int rowId) {
      if (isNullAt(rowId)) {
        return null;
      }
      return new ColumnarMap(keys, values, offsets[rowId], offsets[rowId + 1] - offsets[rowId]);
    }

    @Override
    public void close() {
      keys.close();
      values.close();
    }
  }

  static final class StructColumn extends WrappedColumn {
    private final ColumnVector[] children;

    StructColumn(DataType type, StructVector vector, ColumnVector[] children) {
      super(type, vector);
      this.children = children;
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return children[ordinal];
    }

    @Override
    public void close() {
      for (ColumnVector child : children) {
        child.close();
      }
    }
  }
}
