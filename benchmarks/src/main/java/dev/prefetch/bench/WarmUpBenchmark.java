package dev.prefetch.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How fast the first scans of a fresh JVM are against its steady state, as an engine's short-lived
 * JVM (a task, a CLI run) meets them: the command line in a new process with its own settings
 * ({@code java -Xmx2g -jar prefetch-scan.jar scan --consumer sums --repeat 15 --json --threads N
 * FILE}), one warm-up scan and fifteen measured ones, every value fed to the light consumer of the
 * JMH benchmarks ({@link dev.prefetch.testkit.scan.ValueSums}). The figure per process is its
 * second scan (the first measured) over the median of its scans 11 to 15; each configuration runs
 * in several fresh processes and the median of those is reported.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.prefetch.bench.WarmUpBenchmark
 * [--processes N] [--jar PATH]} after {@code mvn -B -q package -DskipTests}; the scan table comes
 * from {@link BenchData} (system properties {@value BenchData#DIR_PROPERTY} and {@value
 * BenchData#ROWS_PROPERTY}). This is not a JMH benchmark because JMH's forks are the steady state
 * this one measures the way to.
 */
public final class WarmUpBenchmark {

  private static final int MEASURED = 15;

  private WarmUpBenchmark() {}

  /** One process's scans: the second scan of the JVM and the median of its scans 11 to 15. */
  record Process(double second, double steady) {
    double ratio() {
      return second / steady;
    }

    /**
     * From the CLI's {@code secondsEach}: scan k of the JVM is element k - 2 (after the warm-up).
     */
    static Process of(List<Double> secondsEach) {
      if (secondsEach.size() < MEASURED) {
        throw new IllegalArgumentException(
            "expected " + MEASURED + " measured scans, got " + secondsEach.size());
      }
      double[] late =
          secondsEach.subList(9, 14).stream().mapToDouble(Double::doubleValue).toArray();
      return new Process(secondsEach.get(0), median(late));
    }
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int processes = 3;
    Path jar = Path.of("prefetch-cli/target/prefetch-scan.jar");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--processes" -> processes = Integer.parseInt(args[++i]);
        case "--jar" -> jar = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException(
          jar + " not found; build it: mvn -B -q package -DskipTests");
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ObjectMapper json = new ObjectMapper();
    System.out.printf(
        Locale.ROOT,
        "%-8s %-9s %12s %12s %8s   (median of %d fresh processes: %s -Xmx2g -jar %s)%n",
        "format",
        "producers",
        "2nd scan s",
        "scans 11-15",
        "ratio",
        processes,
        java,
        jar);
    for (String format : new String[] {"parquet", "orc"}) {
      Path file = BenchData.scanFile(format);
      for (int producers : new int[] {1, 2}) {
        double[] second = new double[processes];
        double[] steady = new double[processes];
        double[] ratio = new double[processes];
        for (int p = 0; p < processes; p++) {
          Process r = Process.of(scanInFreshJvm(java, jar, producers, file, json));
          second[p] = r.second();
          steady[p] = r.steady();
          ratio[p] = r.ratio();
        }
        System.out.printf(
            Locale.ROOT,
            "%-8s %-9d %12.3f %12.3f %7.2fx   ratios %s%n",
            format,
            producers,
            median(second),
            median(steady),
            median(ratio),
            Arrays.toString(Arrays.stream(ratio).map(v -> Math.round(v * 100) / 100.0).toArray()));
      }
    }
  }

  private static List<Double> scanInFreshJvm(
      String java, Path jar, int producers, Path file, ObjectMapper json)
      throws IOException, InterruptedException {
    List<String> command =
        List.of(
            java,
            "-Xmx2g",
            "-jar",
            jar.toString(),
            "scan",
            "--consumer",
            "sums",
            "--json",
            "--repeat",
            Integer.toString(MEASURED),
            "--threads",
            Integer.toString(producers),
            file.toString());
    java.lang.Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    if (code != 0) {
      throw new IOException(String.join(" ", command) + " exited with " + code + ": " + out);
    }
    JsonNode result = json.readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
    List<Double> seconds = new ArrayList<>();
    result.path("secondsEach").forEach(n -> seconds.add(n.asDouble()));
    return seconds;
  }
}
