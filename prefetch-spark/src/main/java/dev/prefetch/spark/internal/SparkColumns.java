package dev.prefetch.spark.internal;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType.Kind;
import dev.prefetch.batch.DataType.TimeUnit;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.StructVector;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
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
 *   <li>strings: {@link UTF8String} views of the vector's byte buffer (no copy), or for a {@link
 *       DictionaryVector} of the row's entry in the dictionary's byte buffer; binary values are
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
    if (fixedWidth(sparkType, kind)) {
      return new PrimitiveColumns.FixedWidthColumn(sparkType, vector);
    }
    if (sparkType instanceof DecimalType && kind == Kind.DECIMAL) {
      return new PrimitiveColumns.DecimalColumn(sparkType, (DecimalVector) vector);
    }
    if (timestamp(sparkType, kind)) {
      return timestamp(sparkType, (LongVector) vector, zone);
    }
    if (stringOrBinary(sparkType, kind)) {
      // By class, not by type: a format may give either vector for a string column, anywhere.
      return vector instanceof DictionaryVector dictionary
          ? new PrimitiveColumns.DictionaryColumn(sparkType, dictionary)
          : new PrimitiveColumns.BinaryColumn(sparkType, (BinaryVector) vector);
    }
    if (sparkType instanceof ArrayType array && kind == Kind.LIST) {
      ListVector list = (ListVector) vector;
      return new NestedColumns.ListColumn(
          sparkType, list, wrap(list.elements(), array.elementType(), zone));
    }
    if (sparkType instanceof MapType map && kind == Kind.MAP) {
      MapVector m = (MapVector) vector;
      return new NestedColumns.MapColumn(
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
      return new NestedColumns.StructColumn(sparkType, s, children);
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
    return fixedWidth(sparkType, kind)
        || (sparkType instanceof DecimalType && kind == Kind.DECIMAL)
        || timestamp(sparkType, kind)
        || stringOrBinary(sparkType, kind);
  }

  /** The pairs {@link PrimitiveColumns.FixedWidthColumn} reads: one array of the Spark type. */
  private static boolean fixedWidth(DataType sparkType, Kind kind) {
    return (sparkType instanceof BooleanType && kind == Kind.BOOLEAN)
        || (sparkType instanceof ByteType && kind == Kind.INT8)
        || (sparkType instanceof ShortType && kind == Kind.INT16)
        || (sparkType instanceof IntegerType && kind == Kind.INT32)
        || (sparkType instanceof DateType && kind == Kind.DATE)
        // Spark writes TIMESTAMP_NTZ to ORC as a bigint of microseconds (marked by an attribute).
        || ((sparkType instanceof LongType || sparkType instanceof TimestampNTZType)
            && kind == Kind.INT64)
        || (sparkType instanceof FloatType && kind == Kind.FLOAT32)
        || (sparkType instanceof DoubleType && kind == Kind.FLOAT64);
  }

  private static boolean timestamp(DataType sparkType, Kind kind) {
    return (sparkType instanceof TimestampType || sparkType instanceof TimestampNTZType)
        && kind == Kind.TIMESTAMP;
  }

  private static boolean stringOrBinary(DataType sparkType, Kind kind) {
    return (sparkType instanceof StringType || sparkType instanceof BinaryType)
        && (kind == Kind.STRING || kind == Kind.BINARY || kind == Kind.FIXED_BINARY);
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
      return new PrimitiveColumns.FixedWidthColumn(sparkType, vector);
    }
    return new PrimitiveColumns.TimestampColumn(sparkType, vector, unit, rules);
  }
}
