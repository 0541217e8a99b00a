package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Reads values back from the README's JSON row encoding, independently of {@link ValueEncoding},
 * into the normalized form of {@link #normalize}: what a test compares with a batch's values.
 */
public final class JsonValues {

  private JsonValues() {}

  /** The value {@code node} encodes for {@code type}, normalized. */
  public static Object decode(JsonNode node, DataType type) {
    if (node == null) {
      throw new AssertionError("missing value of type " + type);
    }
    if (node.isNull()) {
      return null;
    }
    switch (type.kind()) {
      case BOOLEAN:
        require(node.isBoolean(), node, type);
        return node.booleanValue();
      case INT8:
        require(node.isIntegralNumber(), node, type);
        return (byte) node.intValue();
      case INT16:
        require(node.isIntegralNumber(), node, type);
        return (short) node.intValue();
      case INT32:
        require(node.isIntegralNumber(), node, type);
        return node.intValue();
      case INT64:
        require(node.isIntegralNumber() && node.canConvertToLong(), node, type);
        return node.longValue();
      case FLOAT32:
        return node.isTextual()
            ? (float) special(node.textValue())
            : Float.parseFloat(node.asText());
      case FLOAT64:
        return node.isTextual() ? special(node.textValue()) : Double.parseDouble(node.asText());
      case DECIMAL:
        {
          require(node.isTextual(), node, type);
          BigDecimal d = new BigDecimal(node.textValue());
          require(d.scale() == type.scale(), node, type);
          return d;
        }
      case DATE:
        require(node.isTextual(), node, type);
        return (int) LocalDate.parse(node.textValue()).toEpochDay();
      case TIME:
        {
          String text = utc(node, type);
          int dot = text.indexOf('.');
          long seconds = LocalTime.parse(text.substring(0, dot)).toSecondOfDay();
          return seconds * perSecond(type) + fraction(text.substring(dot + 1), type, node);
        }
      case TIMESTAMP:
        {
          String text = utc(node, type);
          int dot = text.lastIndexOf('.');
          long seconds = LocalDateTime.parse(text.substring(0, dot)).toEpochSecond(ZoneOffset.UTC);
          return seconds * perSecond(type) + fraction(text.substring(dot + 1), type, node);
        }
      case STRING:
        require(node.isTextual(), node, type);
        return node.textValue();
      case BINARY:
      case FIXED_BINARY:
        require(node.isTextual(), node, type);
        return normalize(Base64.getDecoder().decode(node.textValue()));
      case LIST:
        {
          require(node.isArray(), node, type);
          List<Object> values = new ArrayList<>();
          for (JsonNode element : node) {
            values.add(decode(element, type.elementField().type()));
          }
          return values;
        }
      case STRUCT:
        {
          require(node.isObject() && node.size() == type.children().size(), node, type);
          List<Object> values = new ArrayList<>();
          for (Field field : type.children()) {
            values.add(decode(node.get(field.name()), field.type()));
          }
          return values;
        }
      case MAP:
        {
          require(node.isArray(), node, type);
          List<Object> entries = new ArrayList<>();
          for (JsonNode entry : node) {
            require(entry.isObject() && entry.size() == 2, entry, type);
            List<Object> pair = new ArrayList<>();
            pair.add(decode(entry.get("key"), type.children().get(0).type()));
            pair.add(decode(entry.get("value"), type.children().get(1).type()));
            entries.add(pair);
          }
          return entries;
        }
      default:
        throw new AssertionError("unknown kind " + type);
    }
  }

  /**
   * A batch value ({@code ColumnVector.getObject}) in comparable form: bytes as hex text, map
   * entries as two-element lists, lists (and struct field lists) element by element.
   */
  public static Object normalize(Object value) {
    if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Map.Entry<?, ?> entry) {
      List<Object> pair = new ArrayList<>();
      pair.add(normalize(entry.getKey()));
      pair.add(normalize(entry.getValue()));
      return pair;
    }
    if (value instanceof List<?> list) {
      List<Object> values = new ArrayList<>();
      for (Object element : list) {
        values.add(normalize(element));
      }
      return values;
    }
    return value;
  }

  private static double special(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> throw new AssertionError("not a float: \"" + text + "\"");
    };
  }

  private static String utc(JsonNode node, DataType type) {
    require(node.isTextual(), node, type);
    String text = node.textValue();
    require(text.endsWith("Z") == type.utcAdjusted(), node, type);
    return type.utcAdjusted() ? text.substring(0, text.length() - 1) : text;
  }

  private static long perSecond(DataType type) {
    return switch (type.timeUnit()) {
      case MILLIS -> 1_000L;
      case MICROS -> 1_000_000L;
      case NANOS -> 1_000_000_000L;
    };
  }

  /** The fraction digits, which must be exactly those of the type's unit. */
  private static long fraction(String digits, DataType type, JsonNode node) {
    int expected = Long.toString(perSecond(type)).length() - 1;
    require(digits.length() == expected, node, type);
    return Long.parseLong(digits);
  }

  private static void require(boolean ok, JsonNode node, DataType type) {
    if (!ok) {
      throw new AssertionError(node + " is not an encoded " + type);
    }
  }
}
