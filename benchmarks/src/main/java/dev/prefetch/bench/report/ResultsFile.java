package dev.prefetch.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads JMH's JSON result file ({@code -rf json}) into {@link BenchResult}s in seconds. */
public final class ResultsFile {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ResultsFile() {}

  /** The results in {@code file}; a file that is not JMH's JSON fails naming it. */
  public static List<BenchResult> read(Path file) throws IOException {
    String text = Files.readString(file);
    try {
      return parse(MAPPER.readTree(text));
    } catch (JsonProcessingException e) {
      throw notJmh(file, e.getOriginalMessage(), e);
    } catch (IllegalArgumentException e) {
      throw notJmh(file, e.getMessage(), e);
    }
  }

  private static IOException notJmh(Path file, String why, Exception cause) {
    return new IOException(file + ": not a JMH JSON result file (" + why + ")", cause);
  }

  static List<BenchResult> parse(JsonNode root) {
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("expected an array of benchmark results");
    }
    List<BenchResult> out = new ArrayList<>();
    for (JsonNode r : root) {
      String benchmark = r.path("benchmark").textValue();
      if (benchmark == null) {
        throw new IllegalArgumentException("a result without 'benchmark'");
      }
      String[] parts = benchmark.split("\\.");
      String simpleClass = parts.length >= 2 ? parts[parts.length - 2] : benchmark;
      Map<String, String> params = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = r.path("params").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        params.put(e.getKey(), e.getValue().asText());
      }
      JsonNode metric = r.path("primaryMetric");
      if (!metric.isObject()) {
        throw new IllegalArgumentException(benchmark + ": no 'primaryMetric'");
      }
      double scale = toSeconds(metric.path("scoreUnit").textValue());
      List<Double> seconds = new ArrayList<>();
      for (JsonNode fork : metric.path("rawData")) {
        for (JsonNode v : fork) {
          seconds.add(number(v) * scale);
        }
      }
      List<String> jvmArgs = new ArrayList<>();
      for (JsonNode a : r.path("jvmArgs")) {
        jvmArgs.add(a.asText());
      }
      String jvm =
          r.path("vmName").asText("null")
              + " "
              + r.path("vmVersion").asText("null")
              + " (JDK "
              + r.path("jdkVersion").asText("null")
              + ")";
      Map<String, Double> secondary = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = r.path("secondaryMetrics").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        secondary.put(e.getKey(), number(e.getValue().path("score")));
      }
      out.add(
          new BenchResult(
              simpleClass,
              params,
              seconds,
              number(metric.path("score")) * scale,
              number(metric.path("scoreError")) * scale,
              (int) number(r.path("forks")),
              (int) number(r.path("warmupIterations")),
              (int) number(r.path("measurementIterations")),
              jvmArgs,
              jvm,
              secondary));
    }
    return out;
  }

  /**
   * A number, or a number JMH writes as a string (an undefined error is "NaN"), or NaN when absent
   * or not a number.
   */
  private static double number(JsonNode value) {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isTextual()) {
      try {
        return Double.parseDouble(value.textValue());
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  /** The factor from a JMH time unit per operation to seconds. */
  private static double toSeconds(String unit) {
    return switch (unit == null ? "" : unit) {
      case "s/op" -> 1;
      case "ms/op" -> 1e-3;
      case "us/op" -> 1e-6;
      case "ns/op" -> 1e-9;
      default ->
          throw new IllegalArgumentException(
              "unsupported score unit '" + unit + "' (expected a time per operation)");
    };
  }
}
