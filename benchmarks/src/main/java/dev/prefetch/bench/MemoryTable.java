package dev.prefetch.bench;

import dev.prefetch.bench.report.BenchResult;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's memory table: for every trial that ran with {@link HeapProfiler}, its median time,
 * the heap after a collection, the peak heap, the bytes allocated per row and the process's peak
 * resident memory. Empty when no trial ran with the profiler.
 */
final class MemoryTable {

  private MemoryTable() {}

  /** The Markdown section, or "" when no result has the profiler's figures. */
  static String markdown(List<BenchResult> results) {
    StringBuilder rows = new StringBuilder();
    boolean noGc = false;
    for (BenchResult r : results) {
      if (Double.isNaN(r.secondary(HeapProfiler.PEAK))) {
        continue;
      }
      double afterGc = r.secondary(HeapProfiler.AFTER_GC);
      double noGcEnd = r.secondary(HeapProfiler.NO_GC_END);
      String heap;
      if (!Double.isNaN(afterGc)) {
        heap = mib(afterGc);
      } else if (!Double.isNaN(noGcEnd)) {
        heap = "≤ " + mib(noGcEnd) + " (no GC)";
        noGc = true;
      } else {
        heap = "n/a";
      }
      double perRow = r.secondary(HeapProfiler.ALLOC_ROW);
      double rss = r.secondary(HeapProfiler.RSS);
      double gcs = r.secondary(HeapProfiler.GCS);
      rows.append("| ")
          .append(trial(r))
          .append(" | ")
          .append(String.format(Locale.ROOT, r.median() < 10 ? "%.3f" : "%.2f", r.median()))
          .append(" | ")
          .append(heap)
          .append(" | ")
          .append(mib(r.secondary(HeapProfiler.PEAK)))
          .append(" | ")
          .append(Double.isNaN(perRow) ? "n/a" : String.format(Locale.ROOT, "%.1f", perRow))
          .append(" | ")
          .append(Double.isNaN(rss) ? "n/a" : mib(rss))
          .append(" | ")
          .append(Double.isNaN(gcs) ? "n/a" : String.format(Locale.ROOT, "%.0f", gcs))
          .append(" |\n");
    }
    if (rows.length() == 0) {
      return "";
    }
    return "### Memory per trial (`-prof dev.prefetch.bench.HeapProfiler`)\n\n"
        + "| trial | median s/scan | heap after GC (MiB) | peak heap (MiB) | allocated B/row |"
        + " peak RSS (MiB) | GCs |\n"
        + "|---|--:|--:|--:|--:|--:|--:|\n"
        + rows
        + "\n"
        + "Heap after GC: the largest heap occupancy right after a collection in a measured scan"
        + " (the trial's maximum). Peak heap: the sum of the heap pools' peaks in a scan, garbage"
        + " included (the trial's maximum). Allocated B/row: the bytes every thread of the JVM"
        + " allocated on the heap per scan, producers included, over the rows of one scan (the"
        + " trial's mean). GCs: collections over the measured scans. These are JVM heap figures:"
        + " DuckDB's memory is native and not in them; peak RSS, the process's peak resident"
        + " memory in a scan, includes it, and the whole heap when pre-touched (the suite's"
        + " forks)."
        + (noGc
            ? " ≤ (no GC): no collection ran in any measured scan; the figure is the heap's"
                + " occupancy at the scan's end, an upper bound of what it kept reachable."
            : "")
        + "\n\n";
  }

  /** "Parquet, local: ours, single reader" for the known tables, else the class and parameters. */
  private static String trial(BenchResult r) {
    String key = Report.key(r);
    if (key != null) {
      String[] parts = key.split("/", 3);
      String data =
          switch (parts[0]) {
            case "parquet" -> "Parquet";
            case "orc" -> "ORC";
            default -> Report.dataLabel(parts[0]);
          };
      return data + ", " + parts[1] + ": " + Report.label(parts[0], parts[2]);
    }
    StringBuilder out = new StringBuilder(r.benchmark());
    for (Map.Entry<String, String> e : new TreeMap<>(r.params()).entrySet()) {
      out.append(' ').append(e.getKey()).append('=').append(e.getValue());
    }
    return out.toString();
  }

  private static String mib(double mib) {
    return String.format(Locale.ROOT, "%.1f", mib);
  }
}
