package dev.prefetch.cli;

import dev.prefetch.cache.CacheStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of scanning one file with one contender, over one or more timed runs.
 *
 * @param contender who read: "prefetch", "single", "parquet-hadoop", "orc-core"
 * @param file the file as given on the command line
 * @param format "parquet" or "orc"
 * @param rows rows read (per run)
 * @param batches batches (our reader), row groups or vectorized batches (baselines), per run
 * @param columns top-level columns read
 * @param bytesRead bytes read from storage per run, as the reader counts them (-1: unknown)
 * @param fileBytes the file's size
 * @param secondsEach the wall time of every timed run
 * @param cpuSecondsEach the CPU time the whole process spent in every timed run (every thread: the
 *     reader's, the JIT's, the collector's), empty when the JVM does not report it
 * @param checksum the {@link dev.prefetch.testing.Checksum} of every value read
 * @param columnChecksums a checksum per column (empty when not computed)
 * @param columnNames the columns read
 * @param prefetch whether prefetching was chosen
 * @param parallelism producers started (0 on the single path)
 * @param ranges read ranges planned
 * @param cache the cache counters over the timed runs, or null without a cache
 * @param footerReads footer (Parquet) or tail (ORC) reads from storage over the timed runs (a cache
 *     hit is not one), or -1 when the reader does not count them
 * @param footerBytesRead footer or tail bytes read from storage over the timed runs, or -1
 * @param readRequests storage requests over the timed runs, or -1
 */
public record RunResult(
    String contender,
    String file,
    String format,
    long rows,
    long batches,
    int columns,
    long bytesRead,
    long fileBytes,
    List<Double> secondsEach,
    List<Double> cpuSecondsEach,
    String checksum,
    List<String> columnChecksums,
    List<String> columnNames,
    boolean prefetch,
    int parallelism,
    long ranges,
    CacheStats cache,
    long footerReads,
    long footerBytesRead,
    long readRequests) {

  public RunResult {
    secondsEach = List.copyOf(secondsEach);
    cpuSecondsEach = List.copyOf(cpuSecondsEach);
    columnChecksums = List.copyOf(columnChecksums);
    columnNames = List.copyOf(columnNames);
  }

  /** The median of the timed runs. */
  public double seconds() {
    return median(secondsEach);
  }

  /** The median process CPU time of the timed runs, or -1 when it is not known. */
  public double cpuSeconds() {
    return cpuSecondsEach.isEmpty() ? -1 : median(cpuSecondsEach);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  public double rowsPerSecond() {
    double s = seconds();
    return s <= 0 ? 0 : rows / s;
  }

  /** MiB of the file per second (the same denominator for every contender). */
  public double megabytesPerSecond() {
    double s = seconds();
    return s <= 0 ? 0 : fileBytes / (double) (1 << 20) / s;
  }

  /** The JSON object of this result (field names as documented for --json). */
  public Map<String, Object> toJson() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("file", file);
    out.put("format", format);
    out.put("contender", contender);
    out.put("rows", rows);
    out.put("batches", batches);
    out.put("columns", columns);
    out.put("bytesRead", bytesRead);
    out.put("fileBytes", fileBytes);
    out.put("seconds", seconds());
    out.put("secondsEach", secondsEach);
    out.put("cpuSeconds", cpuSeconds());
    out.put("cpuSecondsEach", cpuSecondsEach);
    out.put("rowsPerSecond", rowsPerSecond());
    out.put("megabytesPerSecond", megabytesPerSecond());
    out.put("checksum", checksum);
    Map<String, Object> prefetchJson = new LinkedHashMap<>();
    prefetchJson.put("enabled", prefetch);
    prefetchJson.put("parallelism", parallelism);
    prefetchJson.put("ranges", ranges);
    out.put("prefetch", prefetchJson);
    Map<String, Object> cacheJson = new LinkedHashMap<>();
    CacheStats c = cache == null ? CacheStats.EMPTY : cache;
    cacheJson.put("enabled", cache != null);
    cacheJson.put("hits", c.hits());
    cacheJson.put("misses", c.misses());
    cacheJson.put("bypasses", c.bypasses());
    cacheJson.put("evictions", c.evictions());
    out.put("cache", cacheJson);
    out.put("footerReads", footerReads);
    out.put("footerBytesRead", footerBytesRead);
    out.put("readRequests", readRequests);
    return out;
  }
}
