package dev.prefetch.testkit.scan;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** The CPU time of this whole process (all its threads), where the JVM reports it. */
public final class ProcessCpu {

  private ProcessCpu() {}

  /** Nanoseconds of CPU this process has used, or -1 when the JVM does not say. */
  public static long nanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      long nanos = hotspot.getProcessCpuTime();
      return nanos >= 0 ? nanos : -1;
    }
    return -1;
  }
}
