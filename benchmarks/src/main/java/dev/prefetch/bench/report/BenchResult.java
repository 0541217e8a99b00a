package dev.prefetch.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One JMH benchmark configuration's outcome, in seconds per scan.
 *
 * @param benchmark the benchmark class's simple name (e.g. "ScanBenchmark")
 * @param params the JMH parameters (e.g. format, storage, reader)
 * @param seconds every measured scan, over every fork
 * @param mean JMH's score: the mean of {@code seconds}
 * @param error JMH's 99.9% confidence half-width, NaN when too few scans to compute one
 * @param forks forks run
 * @param warmups warm-up iterations per fork
 * @param iterations measured iterations per fork
 * @param jvmArgs the forked JVM's arguments
 * @param jvm the JDK version, VM name and VM version, as one line
 * @param secondary JMH's score of each secondary metric (a profiler's, e.g. {@code heap.peak}), in
 *     the metric's own unit
 */
public record BenchResult(
    String benchmark,
    Map<String, String> params,
    List<Double> seconds,
    double mean,
    double error,
    int forks,
    int warmups,
    int iterations,
    List<String> jvmArgs,
    String jvm,
    Map<String, Double> secondary) {

  public BenchResult {
    params = Map.copyOf(params);
    secondary = Map.copyOf(secondary);
    seconds = List.copyOf(seconds);
    jvmArgs = List.copyOf(jvmArgs);
  }

  /** The median of the measured scans (the mean when none were kept). */
  public double median() {
    if (seconds.isEmpty()) {
      return mean;
    }
    List<Double> sorted = new ArrayList<>(seconds);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** A secondary metric's score, or NaN when the run did not measure it. */
  public double secondary(String name) {
    Double score = secondary.get(name);
    return score == null ? Double.NaN : score;
  }

  /** A parameter, or {@code fallback} when the benchmark has no such parameter. */
  public String param(String name, String fallback) {
    return params.getOrDefault(name, fallback);
  }

  /** The value of a {@code -Dname=value} argument of the forked JVM, or null. */
  public String systemProperty(String name) {
    String prefix = "-D" + name + "=";
    for (String a : jvmArgs) {
      if (a.startsWith(prefix)) {
        return a.substring(prefix.length());
      }
    }
    return null;
  }
}
