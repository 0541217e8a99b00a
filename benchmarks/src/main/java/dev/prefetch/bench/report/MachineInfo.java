package dev.prefetch.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The description of the machine a benchmark report was made on, for the report's header. */
public final class MachineInfo {

  private MachineInfo() {}

  /** This machine (cores, memory, CPU, OS), the JVMs of the results and the date of the run. */
  public static String describe(List<BenchResult> results, Instant runAt) {
    StringBuilder out = new StringBuilder();
    out.append("- Date of the run: ")
        .append(
            DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                runAt.atOffset(ZoneOffset.UTC).withNano(0)))
        .append(" UTC\n");
    String cpu = cpuModel();
    out.append("- CPU: ")
        .append(cpu == null ? "" : cpu + ", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores available to the JVM\n");
    long memory = totalMemory();
    if (memory > 0) {
      out.append(String.format(Locale.ROOT, "- Memory: %.1f GiB%n", memory / 1073741824.0));
    }
    out.append("- OS: ")
        .append(System.getProperty("os.name"))
        .append(' ')
        .append(System.getProperty("os.version"))
        .append(" (")
        .append(System.getProperty("os.arch"))
        .append(")\n");
    Set<String> jvms = new LinkedHashSet<>();
    for (BenchResult r : results) {
      jvms.add(r.jvm());
    }
    out.append("- JVM of the benchmarks: ").append(String.join("; ", jvms)).append('\n');
    return out.toString();
  }

  /**
   * "CPU: model, N cores" of this machine, the line every table of the report carries (a figure
   * means nothing without the CPU it was measured on).
   */
  public static String cpuLine() {
    String cpu = cpuModel();
    return "CPU: "
        + (cpu == null ? "unknown model" : cpu)
        + ", "
        + Runtime.getRuntime().availableProcessors()
        + " cores";
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or not readable: the core count alone describes the machine.
    }
    return null;
  }

  private static long totalMemory() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }
}
