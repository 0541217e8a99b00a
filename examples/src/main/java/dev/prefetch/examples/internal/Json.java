package dev.prefetch.examples.internal;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the command's output: maps (insertion order kept), lists, strings,
 * numbers, booleans and null.
 */
public final class Json {

  private Json() {}

  /** The JSON text of {@code value} on one line. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Double d) {
      number(out, d);
    } else if (value instanceof Float f) {
      number(out, f.doubleValue());
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.append(first ? "" : ",");
        first = false;
        string(out, String.valueOf(e.getKey()));
        out.append(':');
        append(out, e.getValue());
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "" : ",");
        append(out, list.get(i));
      }
      out.append(']');
    } else {
      string(out, value.toString());
    }
  }

  private static void number(StringBuilder out, double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      out.append("null");
    } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      out.append((long) d);
    } else {
      out.append(
          String.format(Locale.ROOT, "%.6g", d)
              .replaceAll("0+(e|$)", "$1")
              .replaceAll("\\.(e|$)", "$1"));
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
