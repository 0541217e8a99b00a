package dev.prefetch.arrow.internal;

import dev.prefetch.arrow.internal.ColumnPlan.Conversion;
import dev.prefetch.batch.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The type mapping from batch fields (with what the file declared, {@link SourceType}) to Arrow
 * fields. The table is in docs/arrow.md; this class is its one implementation.
 */
public final class ArrowTypes {

  /** Largest decimal precision of Arrow's 128-bit decimals. */
  public static final int MAX_DECIMAL128_PRECISION = 38;

  /** Largest decimal precision of Arrow's 256-bit decimals. */
  public static final int MAX_DECIMAL256_PRECISION = 76;

  /** Name of the struct of a map's entries, as Arrow names it. */
  public static final String MAP_ENTRIES = "entries";

  /** The time zone of UTC-adjusted timestamps. */
  public static final String UTC = "UTC";

  /** The type of a dictionary-encoded field's indices: Arrow's default, signed 32-bit. */
  public static final ArrowType.Int DICTIONARY_INDEX_TYPE = new ArrowType.Int(32, true);

  private ArrowTypes() {}

  /** Whether {@code plan}'s values can be dictionary-encoded: strings and binaries, flat. */
  public static boolean canEncode(ColumnPlan plan) {
    return plan.conversion() == Conversion.VARIABLE || plan.conversion() == Conversion.FIXED;
  }

  /**
   * The plan of {@code values}' field dictionary-encoded: int32 indices into dictionary {@code id}
   * of those values. The Arrow field is the values' field with the encoding (Arrow's message
   * format, as a stream's schema states it).
   *
   * @throws IllegalArgumentException when the values are not strings or binaries
   */
  public static ColumnPlan dictionary(ColumnPlan values, long id) {
    if (!canEncode(values)) {
      throw new IllegalArgumentException(
          "only strings and binaries are dictionary-encoded, not column "
              + values.arrowField().getName()
              + ": "
              + values.arrowField().getType());
    }
    Field plain = values.arrowField();
    Field encoded =
        new Field(
            plain.getName(),
            new FieldType(
                plain.isNullable(),
                plain.getType(),
                new DictionaryEncoding(id, false, DICTIONARY_INDEX_TYPE)),
            List.of());
    return new ColumnPlan(encoded, Conversion.DICTIONARY, values.byteWidth(), List.of(values));
  }

  /** The plan of batch field {@code field} declared in the file as {@code source}. */
  public static ColumnPlan plan(dev.prefetch.batch.Field field, SourceType source) {
    return plan(field.name(), field.type(), field.nullable(), source);
  }

  private static ColumnPlan plan(String name, DataType type, boolean nullable, SourceType source) {
    switch (source.kind()) {
      case UNSIGNED:
        return unsigned(name, type, nullable, source.bitWidth());
      case FLOAT16:
        if (type.kind() == DataType.Kind.FLOAT32) {
          return leaf(
              name,
              nullable,
              new ArrowType.FloatingPoint(FloatingPointPrecision.HALF),
              Conversion.FLOAT16,
              0);
        }
        break;
      case UNION:
        if (type.kind() == DataType.Kind.STRUCT) {
          return union(name, type, source);
        }
        break;
      default:
        break;
    }
    switch (type.kind()) {
      case BOOLEAN:
        return leaf(name, nullable, ArrowType.Bool.INSTANCE, Conversion.BOOL, 0);
      case INT8:
        return leaf(name, nullable, new ArrowType.Int(8, true), Conversion.BYTES_1, 0);
      case INT16:
        return leaf(name, nullable, new ArrowType.Int(16, true), Conversion.BYTES_2, 0);
      case INT32:
        return leaf(name, nullable, new ArrowType.Int(32, true), Conversion.BYTES_4, 0);
      case INT64:
        return leaf(name, nullable, new ArrowType.Int(64, true), Conversion.BYTES_8, 0);
      case FLOAT32:
        return leaf(
            name,
            nullable,
            new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
            Conversion.BYTES_4,
            0);
      case FLOAT64:
        return leaf(
            name,
            nullable,
            new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
            Conversion.BYTES_8,
            0);
      case DECIMAL:
        return decimal(name, type, nullable);
      case DATE:
        return leaf(name, nullable, new ArrowType.Date(DateUnit.DAY), Conversion.BYTES_4, 0);
      case TIME:
        if (type.timeUnit() == DataType.TimeUnit.MILLIS) {
          return leaf(
              name, nullable, new ArrowType.Time(TimeUnit.MILLISECOND, 32), Conversion.TIME32, 0);
        }
        return leaf(
            name, nullable, new ArrowType.Time(unit(type.timeUnit()), 64), Conversion.BYTES_8, 0);
      case TIMESTAMP:
        return leaf(
            name,
            nullable,
            new ArrowType.Timestamp(unit(type.timeUnit()), type.utcAdjusted() ? UTC : null),
            Conversion.BYTES_8,
            0);
      case STRING:
        return leaf(name, nullable, ArrowType.Utf8.INSTANCE, Conversion.VARIABLE, 0);
      case BINARY:
        return leaf(name, nullable, ArrowType.Binary.INSTANCE, Conversion.VARIABLE, 0);
      case FIXED_BINARY:
        if (type.byteWidth() == 0) {
          return leaf(name, nullable, ArrowType.Binary.INSTANCE, Conversion.VARIABLE, 0);
        }
        return leaf(
            name,
            nullable,
            new ArrowType.FixedSizeBinary(type.byteWidth()),
            Conversion.FIXED,
            type.byteWidth());
      case LIST:
        {
          dev.prefetch.batch.Field element = type.elementField();
          ColumnPlan child =
              plan(element.name(), element.type(), element.nullable(), source.child(0));
          return nested(name, nullable, ArrowType.List.INSTANCE, Conversion.LIST, List.of(child));
        }
      case MAP:
        {
          dev.prefetch.batch.Field key = type.keyField();
          dev.prefetch.batch.Field value = type.valueField();
          // Arrow's map keys are never null; its entries are a non-null struct of key and value.
          ColumnPlan keyPlan = plan(key.name(), key.type(), false, source.child(0));
          ColumnPlan valuePlan =
              plan(value.name(), value.type(), value.nullable(), source.child(1));
          ColumnPlan entries =
              nested(
                  MAP_ENTRIES,
                  false,
                  ArrowType.Struct.INSTANCE,
                  Conversion.STRUCT,
                  List.of(keyPlan, valuePlan));
          return nested(name, nullable, new ArrowType.Map(false), Conversion.MAP, List.of(entries));
        }
      case STRUCT:
        {
          List<ColumnPlan> children = new ArrayList<>(type.children().size());
          for (int i = 0; i < type.children().size(); i++) {
            dev.prefetch.batch.Field f = type.children().get(i);
            children.add(plan(f.name(), f.type(), f.nullable(), source.child(i)));
          }
          return nested(name, nullable, ArrowType.Struct.INSTANCE, Conversion.STRUCT, children);
        }
      default:
        throw new IllegalArgumentException("no Arrow type for column " + name + ": " + type);
    }
  }

  private static ColumnPlan unsigned(String name, DataType type, boolean nullable, int bits) {
    DataType.Kind widened =
        switch (bits) {
          case 8 -> DataType.Kind.INT16;
          case 16 -> DataType.Kind.INT32;
          case 32 -> DataType.Kind.INT64;
          default -> DataType.Kind.DECIMAL;
        };
    if (type.kind() != widened
        || (widened == DataType.Kind.DECIMAL && (type.precision() != 20 || type.scale() != 0))) {
      // Not the widening the formats document: map by the batch type alone.
      return plan(name, type, nullable, SourceType.PLAIN);
    }
    Conversion conversion =
        switch (bits) {
          case 8 -> Conversion.UINT8;
          case 16 -> Conversion.UINT16;
          case 32 -> Conversion.UINT32;
          default -> Conversion.UINT64;
        };
    return leaf(name, nullable, new ArrowType.Int(bits, false), conversion, 0);
  }

  private static ColumnPlan decimal(String name, DataType type, boolean nullable) {
    int precision = type.precision();
    int bitWidth;
    if (precision <= MAX_DECIMAL128_PRECISION) {
      bitWidth = 128;
    } else if (precision <= MAX_DECIMAL256_PRECISION) {
      bitWidth = 256;
    } else {
      throw new IllegalArgumentException(
          "no Arrow type for column "
              + name
              + ": "
              + type
              + " (Arrow decimals hold at most "
              + MAX_DECIMAL256_PRECISION
              + " digits)");
    }
    Conversion conversion =
        precision <= DataType.MAX_LONG_DECIMAL_PRECISION
            ? Conversion.DECIMAL_LONG
            : Conversion.DECIMAL_BYTES;
    return leaf(
        name,
        nullable,
        new ArrowType.Decimal(precision, type.scale(), bitWidth),
        conversion,
        bitWidth / 8);
  }

  private static ColumnPlan union(String name, DataType type, SourceType source) {
    int alternatives = type.children().size() - 1;
    List<ColumnPlan> children = new ArrayList<>(alternatives);
    int[] typeIds = new int[alternatives];
    for (int i = 0; i < alternatives; i++) {
      dev.prefetch.batch.Field f = type.children().get(i + 1);
      // Every alternative is nullable: a null union is a null in its first alternative.
      children.add(plan(f.name(), f.type(), true, source.child(i)));
      typeIds[i] = i;
    }
    return nested(
        name,
        true,
        new ArrowType.Union(UnionMode.Dense, typeIds),
        Conversion.DENSE_UNION,
        children);
  }

  private static TimeUnit unit(DataType.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> TimeUnit.MILLISECOND;
      case MICROS -> TimeUnit.MICROSECOND;
      case NANOS -> TimeUnit.NANOSECOND;
    };
  }

  private static ColumnPlan leaf(
      String name, boolean nullable, ArrowType type, Conversion conversion, int byteWidth) {
    return new ColumnPlan(
        new Field(name, new FieldType(nullable, type, null), List.of()),
        conversion,
        byteWidth,
        List.of());
  }

  private static ColumnPlan nested(
      String name,
      boolean nullable,
      ArrowType type,
      Conversion conversion,
      List<ColumnPlan> children) {
    List<Field> fields = new ArrayList<>(children.size());
    for (ColumnPlan child : children) {
      fields.add(child.arrowField());
    }
    return new ColumnPlan(
        new Field(name, new FieldType(nullable, type, null), fields), conversion, 0, children);
  }
}
