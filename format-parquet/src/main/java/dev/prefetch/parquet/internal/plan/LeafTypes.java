package dev.prefetch.parquet.internal.plan;

import dev.prefetch.batch.DataType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The type mapping of leaf columns (see the package documentation of {@code dev.prefetch.parquet}
 * for the table). {@code flat.ColumnAdapters} chooses the adapter that produces each mapped type.
 */
public final class LeafTypes {

  private LeafTypes() {}

  /** The logical type a leaf column maps to, INT96 as microseconds. */
  public static DataType typeOf(PrimitiveType type) {
    return typeOf(type, DataType.TimeUnit.MICROS);
  }

  /**
   * The logical type a leaf column maps to.
   *
   * @param int96Unit the unit of INT96 timestamps: MICROS or NANOS
   */
  public static DataType typeOf(PrimitiveType type, DataType.TimeUnit int96Unit) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return DataType.bool();
      case INT32:
        if (logical instanceof IntLogicalTypeAnnotation i) {
          if (i.isSigned()) {
            return i.getBitWidth() == 8
                ? DataType.int8()
                : i.getBitWidth() == 16 ? DataType.int16() : DataType.int32();
          }
          // unsigned: widen to the next signed kind so that every value fits
          return i.getBitWidth() == 8
              ? DataType.int16()
              : i.getBitWidth() == 16 ? DataType.int32() : DataType.int64();
        }
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return DataType.date();
        }
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
          return decimal(d);
        }
        if (logical instanceof TimeLogicalTypeAnnotation t) {
          return DataType.time(unit(t.getUnit()), t.isAdjustedToUTC());
        }
        return DataType.int32();
      case INT64:
        if (logical instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
          return DataType.decimal(20, 0);
        }
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
          return decimal(d);
        }
        if (logical instanceof TimeLogicalTypeAnnotation t) {
          return DataType.time(unit(t.getUnit()), t.isAdjustedToUTC());
        }
        if (logical instanceof TimestampLogicalTypeAnnotation t) {
          return DataType.timestamp(unit(t.getUnit()), t.isAdjustedToUTC());
        }
        return DataType.int64();
      case INT96:
        return DataType.timestamp(int96Unit, true);
      case FLOAT:
        return DataType.float32();
      case DOUBLE:
        return DataType.float64();
      case BINARY:
        if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          return DataType.string();
        }
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
          return decimal(d);
        }
        return DataType.binary();
      case FIXED_LEN_BYTE_ARRAY:
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
          return decimal(d);
        }
        if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
            && type.getTypeLength() == 2) {
          return DataType.float32();
        }
        return DataType.fixedBinary(type.getTypeLength());
      default:
        throw new IllegalArgumentException("unknown physical type " + type);
    }
  }

  private static DataType decimal(DecimalLogicalTypeAnnotation d) {
    return DataType.decimal(d.getPrecision(), d.getScale());
  }

  private static DataType.TimeUnit unit(LogicalTypeAnnotation.TimeUnit unit) {
    switch (unit) {
      case MILLIS:
        return DataType.TimeUnit.MILLIS;
      case MICROS:
        return DataType.TimeUnit.MICROS;
      default:
        return DataType.TimeUnit.NANOS;
    }
  }
}
