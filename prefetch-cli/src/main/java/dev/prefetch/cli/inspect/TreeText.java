package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Renders an inspection result as text: an object's scalar fields as {@code key: value} lines, each
 * array of objects as a block per element (its scalars on one line), and an array of flat objects
 * as an aligned table.
 */
public final class TreeText {

  private TreeText() {}

  /** Prints {@code node} (an object) to {@code out}. */
  public static void print(PrintWriter out, ObjectNode node) {
    print(out, node, "");
  }

  private static void print(PrintWriter out, ObjectNode node, String indent) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isContainerNode()) {
        out.println(indent + e.getKey() + ": " + text(e.getValue()));
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode value = e.getValue();
      if (!value.isArray()) {
        continue;
      }
      if (isFlatTable(value)) {
        table(out, value, indent);
        continue;
      }
      for (JsonNode element : value) {
        if (element instanceof ObjectNode object) {
          out.println();
          out.println(indent + scalarsLine(object));
          for (Iterator<Map.Entry<String, JsonNode>> inner = object.fields(); inner.hasNext(); ) {
            Map.Entry<String, JsonNode> child = inner.next();
            if (child.getValue().isArray() && isFlatTable(child.getValue())) {
              table(out, child.getValue(), indent + "  ");
            }
          }
        }
      }
    }
    out.flush();
  }

  private static boolean isFlatTable(JsonNode array) {
    if (array.isEmpty()) {
      return false;
    }
    for (JsonNode element : array) {
      if (!element.isObject()) {
        return false;
      }
      for (JsonNode v : element) {
        if (v.isContainerNode()) {
          return false;
        }
      }
    }
    return true;
  }

  private static String scalarsLine(ObjectNode object) {
    List<String> parts = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isContainerNode()) {
        parts.add(e.getKey() + " " + text(e.getValue()));
      }
    }
    return String.join(", ", parts);
  }

  private static void table(PrintWriter out, JsonNode array, String indent) {
    List<String> header = new ArrayList<>();
    for (JsonNode element : array) {
      element
          .fieldNames()
          .forEachRemaining(
              name -> {
                if (!header.contains(name)) {
                  header.add(name);
                }
              });
    }
    boolean[] numeric = new boolean[header.size()];
    for (int c = 0; c < header.size(); c++) {
      numeric[c] = true;
      for (JsonNode element : array) {
        JsonNode v = element.get(header.get(c));
        if (v != null && !v.isNull() && !v.isNumber()) {
          numeric[c] = false;
        }
      }
    }
    java.io.StringWriter buffer = new java.io.StringWriter();
    PrintWriter lines = new PrintWriter(buffer);
    TextTable t = new TextTable(lines, header, numeric, Integer.MAX_VALUE, Integer.MAX_VALUE);
    for (JsonNode element : array) {
      String[] cells = new String[header.size()];
      for (int c = 0; c < cells.length; c++) {
        JsonNode v = element.get(header.get(c));
        cells[c] = v == null ? "" : text(v);
      }
      t.row(cells);
    }
    t.flush();
    lines.flush();
    for (String line : buffer.toString().split("\n")) {
      out.println(indent + line);
    }
  }

  private static String text(JsonNode v) {
    if (v.isNull()) {
      return "-";
    }
    if (v.isBoolean()) {
      return v.booleanValue() ? "yes" : "no";
    }
    return v.asText();
  }
}
