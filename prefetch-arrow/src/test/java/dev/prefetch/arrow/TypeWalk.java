package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Schema;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Checks an Arrow schema against the batch schema it maps, field by field, by the table of
 * docs/arrow.md written out a second time: the unit and zone of every timestamp and time, decimal
 * precision, scale and width, names and nullability, the nesting of lists, maps and structs. Where
 * the file's own type is narrower than the batch type, either mapping is accepted: an unsigned
 * integer (INT16 as uint8, INT32 as uint16, INT64 as uint32, DECIMAL(20, 0) as uint64), FLOAT16
 * (FLOAT32 as a half float) and an ORC union (a STRUCT of a tag and its alternatives as a dense
 * union).
 */
public final class TypeWalk {

  private TypeWalk() {}

  /** Asserts that every field of {@code arrow} is the mapping of the batch field at its index. */
  public static void assertMapped(Schema schema, org.apache.arrow.vector.types.pojo.Schema arrow) {
    List<Field> fields = arrow.getFields();
    assertThat(fields).hasSize(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      dev.prefetch.batch.Field ours = schema.field(i);
      assertThat(fields.get(i).getName()).isEqualTo(ours.name());
      assertField(ours.name(), ours.type(), ours.nullable(), fields.get(i));
    }
  }

  private static void assertField(String path, DataType type, boolean nullable, Field arrow) {
    ArrowType t = arrow.getType();
    if (t instanceof ArrowType.Union union) {
      assertUnion(path, type, arrow, union);
      return;
    }
    assertThat(arrow.isNullable()).as("%s nullable", path).isEqualTo(nullable);
    switch (type.kind()) {
      case BOOLEAN -> assertType(path, t, ArrowType.Bool.INSTANCE);
      case INT8 -> assertType(path, t, new ArrowType.Int(8, true));
      case INT16 -> assertType(path, t, new ArrowType.Int(16, true), new ArrowType.Int(8, false));
      case INT32 -> assertType(path, t, new ArrowType.Int(32, true), new ArrowType.Int(16, false));
      case INT64 -> assertType(path, t, new ArrowType.Int(64, true), new ArrowType.Int(32, false));
      case FLOAT32 ->
          assertType(
              path,
              t,
              new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
              new ArrowType.FloatingPoint(FloatingPointPrecision.HALF));
      case FLOAT64 ->
          assertType(path, t, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
      case DECIMAL -> {
        int width = type.precision() <= 38 ? 128 : 256;
        ArrowType decimal = new ArrowType.Decimal(type.precision(), type.scale(), width);
        if (type.precision() == 20 && type.scale() == 0) {
          assertType(path, t, decimal, new ArrowType.Int(64, false));
        } else {
          assertType(path, t, decimal);
        }
      }
      case DATE -> assertType(path, t, new ArrowType.Date(DateUnit.DAY));
      case TIME ->
          assertType(
              path,
              t,
              new ArrowType.Time(
                  unit(type.timeUnit()), type.timeUnit() == DataType.TimeUnit.MILLIS ? 32 : 64));
      case TIMESTAMP ->
          assertType(
              path,
              t,
              new ArrowType.Timestamp(unit(type.timeUnit()), type.utcAdjusted() ? "UTC" : null));
      case STRING -> assertType(path, t, ArrowType.Utf8.INSTANCE);
      case BINARY -> assertType(path, t, ArrowType.Binary.INSTANCE);
      case FIXED_BINARY ->
          assertType(
              path,
              t,
              type.byteWidth() == 0
                  ? ArrowType.Binary.INSTANCE
                  : new ArrowType.FixedSizeBinary(type.byteWidth()));
      case LIST -> {
        assertType(path, t, ArrowType.List.INSTANCE);
        assertThat(arrow.getChildren()).as("%s children", path).hasSize(1);
        dev.prefetch.batch.Field element = type.elementField();
        assertField(
            path + "." + element.name(),
            element.type(),
            element.nullable(),
            arrow.getChildren().get(0));
      }
      case MAP -> {
        assertType(path, t, new ArrowType.Map(false));
        assertThat(arrow.getChildren()).as("%s children", path).hasSize(1);
        Field entries = arrow.getChildren().get(0);
        assertThat(entries.getType()).as("%s entries", path).isEqualTo(ArrowType.Struct.INSTANCE);
        assertThat(entries.isNullable()).as("%s entries nullable", path).isFalse();
        assertThat(entries.getChildren()).as("%s entries", path).hasSize(2);
        dev.prefetch.batch.Field key = type.keyField();
        dev.prefetch.batch.Field value = type.valueField();
        // Arrow's map keys are never null.
        assertField(path + ".key", key.type(), false, entries.getChildren().get(0));
        assertField(path + ".value", value.type(), value.nullable(), entries.getChildren().get(1));
      }
      case STRUCT -> {
        assertType(path, t, ArrowType.Struct.INSTANCE);
        assertThat(arrow.getChildren()).as("%s children", path).hasSize(type.children().size());
        for (int i = 0; i < type.children().size(); i++) {
          dev.prefetch.batch.Field f = type.children().get(i);
          assertField(path + "." + f.name(), f.type(), f.nullable(), arrow.getChildren().get(i));
        }
      }
      default -> throw new AssertionError("no Arrow type expected for " + type);
    }
  }

  /**
   * An ORC union: the batch's STRUCT(tag, alternatives...) as a dense union of the alternatives.
   */
  private static void assertUnion(String path, DataType type, Field arrow, ArrowType.Union union) {
    assertThat(union.getMode()).as("%s union mode", path).isEqualTo(UnionMode.Dense);
    assertThat(type.kind()).as("%s union's batch type", path).isEqualTo(DataType.Kind.STRUCT);
    List<dev.prefetch.batch.Field> alternatives =
        type.children().subList(1, type.children().size());
    assertThat(type.children().get(0).type().kind())
        .as("%s union tag", path)
        .isEqualTo(DataType.Kind.INT8);
    assertThat(arrow.getChildren()).as("%s alternatives", path).hasSize(alternatives.size());
    for (int i = 0; i < alternatives.size(); i++) {
      dev.prefetch.batch.Field f = alternatives.get(i);
      // Every alternative is nullable: a null union is a null in its first alternative.
      assertField(path + "." + f.name(), f.type(), true, arrow.getChildren().get(i));
    }
  }

  private static void assertType(String path, ArrowType actual, ArrowType... allowed) {
    assertThat(actual).as("%s Arrow type", path).isIn((Object[]) allowed);
  }

  private static TimeUnit unit(DataType.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> TimeUnit.MILLISECOND;
      case MICROS -> TimeUnit.MICROSECOND;
      case NANOS -> TimeUnit.NANOSECOND;
    };
  }
}
