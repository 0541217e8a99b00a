package dev.prefetch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's peak resident memory on Linux, from {@code /proc/self/status} ({@code VmHWM}),
 * resettable through {@code /proc/self/clear_refs}; elsewhere, unknown.
 */
final class ProcessMemory {

  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  private ProcessMemory() {}

  /** Resets the peak to the current resident memory; false when the system cannot. */
  static boolean resetPeak() {
    try {
      // "5" resets only the peak resident set size (see proc(5)); the pages stay as they are.
      Files.writeString(CLEAR_REFS, "5");
      return true;
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      return false;
    }
  }

  /** The peak resident memory since the last reset, in bytes, or -1 when unknown. */
  static long peakBytes() {
    try {
      for (String line : Files.readAllLines(STATUS)) {
        if (line.startsWith("VmHWM:")) {
          String[] parts = line.substring("VmHWM:".length()).trim().split("\\s+");
          if (parts.length == 2 && parts[1].equals("kB")) {
            return Long.parseLong(parts[0]) * 1024;
          }
        }
      }
    } catch (IOException | NumberFormatException | SecurityException e) {
      // Not Linux, or not readable: unknown.
    }
    return -1;
  }
}
