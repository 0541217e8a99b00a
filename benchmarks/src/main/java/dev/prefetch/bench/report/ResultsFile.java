package dev.prefetch.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads JMH's JSON result file ({@code -rf json}) into {@link BenchResult}s in seconds. */
public final class ResultsFile {

  private ResultsFile() {}

  /** The results in {@code file}; a file that is not JMH's JSON fails naming it. */
  public static List<BenchResult> read(Path file) throws IOException {
    String text = Files.readString(file);
    try {
      return parse(text);
    } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
      throw new IOException(file + ": not a JMH JSON result file (" + e.getMessage() + ")", e);
    }
  }

  static List<BenchResult> parse(String text) {
    Object root = JsonReader.parse(text);
    if (!(root instanceof List<?> list)) {
      throw new IllegalArgumentException("expected an array of benchmark results");
    }
    List<BenchResult> out = new ArrayList<>();
    for (Object item : list) {
      @SuppressWarnings("unchecked")
      Map<String, Object> r = (Map<String, Object>) item;
      String benchmark = (String) r.get("benchmark");
      if (benchmark == null) {
        throw new IllegalArgumentException("a result without 'benchmark'");
      }
      String[] parts = benchmark.split("\\.");
      String simpleClass = parts.length >= 2 ? parts[parts.length - 2] : benchmark;
      Map<String, String> params = new LinkedHashMap<>();
      if (r.get("params") instanceof Map<?, ?> p) {
        for (Map.Entry<?, ?> e : p.entrySet()) {
          params.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
        }
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> metric = (Map<String, Object>) r.get("primaryMetric");
      double scale = toSeconds((String) metric.get("scoreUnit"));
      List<Double> seconds = new ArrayList<>();
      if (metric.get("rawData") instanceof List<?> forks) {
        for (Object fork : forks) {
          for (Object v : (List<?>) fork) {
            seconds.add(JsonReader.number(v) * scale);
          }
        }
      }
      List<String> jvmArgs = new ArrayList<>();
      if (r.get("jvmArgs") instanceof List<?> a) {
        for (Object o : a) {
          jvmArgs.add(String.valueOf(o));
        }
      }
      String jvm =
          r.get("vmName") + " " + r.get("vmVersion") + " (JDK " + r.get("jdkVersion") + ")";
      out.add(
          new BenchResult(
              simpleClass,
              params,
              seconds,
              JsonReader.number(metric.get("score")) * scale,
              JsonReader.number(metric.get("scoreError")) * scale,
              (int) JsonReader.number(r.get("forks")),
              (int) JsonReader.number(r.get("warmupIterations")),
              (int) JsonReader.number(r.get("measurementIterations")),
              jvmArgs,
              jvm));
    }
    return out;
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
