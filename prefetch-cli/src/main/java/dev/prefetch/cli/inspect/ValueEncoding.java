package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;
import java.io.IOException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;

/**
 * The JSON encoding of values, one rule per type (the README's "JSON row encoding"):
 *
 * <ul>
 *   <li>null: {@code null}; BOOLEAN: {@code true}/{@code false}; INT8 to INT64: numbers.
 *   <li>FLOAT32, FLOAT64: numbers (the shortest text that reads back as the same value); NaN and
 *       the infinities as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}.
 *   <li>DECIMAL: a string of the plain number with exactly the type's scale ({@code "12.30"}).
 *   <li>DATE: {@code "2024-03-01"}. TIME: {@code "13:45:00.000"} with 3, 6 or 9 fraction digits for
 *       millis, micros or nanos. TIMESTAMP: {@code "2024-03-01T13:45:00.000000"}, fraction digits
 *       by unit as for TIME, and a trailing {@code Z} when adjusted to UTC.
 *   <li>STRING: a string (the bytes decoded as UTF-8). BINARY, FIXED_BINARY: base64 (RFC 4648, with
 *       padding).
 *   <li>LIST: an array. STRUCT: an object of its fields in order. MAP: an array of {@code {"key":
 *       ..., "value": ...}} objects (keys may be of any type).
 * </ul>
 */
public final class ValueEncoding {

  private ValueEncoding() {}

  /** Writes value {@code i} of {@code vector} in the encoding above. */
  public static void write(JsonGenerator out, ColumnVector vector, int i) throws IOException {
    if (vector.isNull(i)) {
      out.writeNull();
      return;
    }
    DataType type = vector.type();
    switch (type.kind()) {
      case BOOLEAN -> out.writeBoolean(((BooleanVector) vector).get(i));
      case INT8 -> out.writeNumber(((ByteVector) vector).get(i));
      case INT16 -> out.writeNumber(((ShortVector) vector).get(i));
      case INT32 -> out.writeNumber(((IntVector) vector).get(i));
      case INT64 -> out.writeNumber(((LongVector) vector).get(i));
      case FLOAT32 -> {
        float f = ((FloatVector) vector).get(i);
        if (Float.isFinite(f)) {
          out.writeNumber(f);
        } else {
          out.writeString(nonFinite(f));
        }
      }
      case FLOAT64 -> {
        double d = ((DoubleVector) vector).get(i);
        if (Double.isFinite(d)) {
          out.writeNumber(d);
        } else {
          out.writeString(nonFinite(d));
        }
      }
      case LIST -> {
        ListVector list = (ListVector) vector;
        out.writeStartArray();
        for (int e = list.start(i); e < list.start(i) + list.length(i); e++) {
          write(out, list.elements(), e);
        }
        out.writeEndArray();
      }
      case STRUCT -> {
        StructVector struct = (StructVector) vector;
        out.writeStartObject();
        List<dev.prefetch.batch.Field> fields = type.children();
        for (int f = 0; f < fields.size(); f++) {
          out.writeFieldName(fields.get(f).name());
          write(out, struct.child(f), i);
        }
        out.writeEndObject();
      }
      case MAP -> {
        MapVector map = (MapVector) vector;
        out.writeStartArray();
        for (int e = map.start(i); e < map.start(i) + map.length(i); e++) {
          out.writeStartObject();
          out.writeFieldName("key");
          write(out, map.keys(), e);
          out.writeFieldName("value");
          write(out, map.values(), e);
          out.writeEndObject();
        }
        out.writeEndArray();
      }
      default -> out.writeString(scalarText(vector, i));
    }
  }

  /**
   * The text of a non-null value that JSON writes as a string (decimal, date, time, timestamp,
   * string, binary), or of any scalar for the text table.
   */
  public static String scalarText(ColumnVector vector, int i) {
    DataType type = vector.type();
    return switch (type.kind()) {
      case BOOLEAN -> Boolean.toString(((BooleanVector) vector).get(i));
      case INT8 -> Byte.toString(((ByteVector) vector).get(i));
      case INT16 -> Short.toString(((ShortVector) vector).get(i));
      case INT32 -> Integer.toString(((IntVector) vector).get(i));
      case INT64 -> Long.toString(((LongVector) vector).get(i));
      case FLOAT32 -> {
        float f = ((FloatVector) vector).get(i);
        yield Float.isFinite(f) ? Float.toString(f) : nonFinite(f);
      }
      case FLOAT64 -> {
        double d = ((DoubleVector) vector).get(i);
        yield Double.isFinite(d) ? Double.toString(d) : nonFinite(d);
      }
      case DECIMAL -> ((DecimalVector) vector).getDecimal(i).toPlainString();
      case DATE -> LocalDate.ofEpochDay(((IntVector) vector).get(i)).toString();
      case TIME -> time(((LongVector) vector).get(i), type);
      case TIMESTAMP -> timestamp(((LongVector) vector).get(i), type);
      // A plain or a dictionary vector: either boxes a String for STRING, a byte[] otherwise.
      case STRING -> (String) vector.getObject(i);
      case BINARY, FIXED_BINARY -> Base64.getEncoder().encodeToString((byte[]) vector.getObject(i));
      case LIST, STRUCT, MAP -> throw new IllegalArgumentException("not a scalar: " + type);
    };
  }

  /** "NaN", "Infinity" or "-Infinity". */
  static String nonFinite(double d) {
    return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
  }

  /** Units per second and fraction digits of a time unit. */
  private static long unitsPerSecond(DataType.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 1_000L;
      case MICROS -> 1_000_000L;
      case NANOS -> 1_000_000_000L;
    };
  }

  private static int fractionDigits(DataType.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 3;
      case MICROS -> 6;
      case NANOS -> 9;
    };
  }

  private static String time(long value, DataType type) {
    long perSecond = unitsPerSecond(type.timeUnit());
    long seconds = Math.floorDiv(value, perSecond);
    long fraction = Math.floorMod(value, perSecond);
    if (seconds < 0 || seconds >= 86_400) {
      // Not a time of day (a writer's bad value): keep the number rather than fail the row.
      return value + " " + type.timeUnit().name().toLowerCase(java.util.Locale.ROOT);
    }
    LocalTime t = LocalTime.ofSecondOfDay(seconds);
    return String.format(
            java.util.Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond())
        + fraction(fraction, type.timeUnit())
        + (type.utcAdjusted() ? "Z" : "");
  }

  private static String timestamp(long value, DataType type) {
    long perSecond = unitsPerSecond(type.timeUnit());
    long seconds = Math.floorDiv(value, perSecond);
    long fraction = Math.floorMod(value, perSecond);
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    return t.toLocalDate()
        + "T"
        + String.format(
            java.util.Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond())
        + fraction(fraction, type.timeUnit())
        + (type.utcAdjusted() ? "Z" : "");
  }

  private static String fraction(long fraction, DataType.TimeUnit unit) {
    String digits = Long.toString(fraction);
    int width = fractionDigits(unit);
    return "." + "0".repeat(width - digits.length()) + digits;
  }
}
