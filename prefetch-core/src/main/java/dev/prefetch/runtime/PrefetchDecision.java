package dev.prefetch.runtime;

import dev.prefetch.ReadOptions;
import dev.prefetch.spi.FilePlan;

/**
 * Whether a read prefetches, with how many producers, and why.
 *
 * @param prefetch true for the producer/consumer path
 * @param parallelism producers to start (0 on the single path)
 * @param reason a short explanation for metrics and the CLI
 */
record PrefetchDecision(boolean prefetch, int parallelism, String reason) {

  /**
   * Prefetch only when enabled, when there is more than one range to spread, and when the estimated
   * compressed bytes of the selected columns reach {@code prefetch.min-read-bytes} (or the first
   * file's format's own threshold, {@link FilePlan#minReadBytes}): below that, thread start-up and
   * hand-off cost more than they save.
   */
  static PrefetchDecision decide(ReadOptions options, int fileCount, FilePlan first) {
    if (!options.prefetchEnabled()) {
      return new PrefetchDecision(false, 0, "prefetch.enabled=false");
    }
    int ranges = first.ranges().size();
    long bytes = first.estimatedBytes();
    long threshold = first.minReadBytes(options);
    String below = " bytes < " + thresholdName(options, first, threshold) + "=" + threshold;
    if (fileCount == 1) {
      if (ranges <= 1) {
        return new PrefetchDecision(false, 0, ranges + " read range(s)");
      }
      if (bytes < threshold) {
        return new PrefetchDecision(false, 0, "estimated " + bytes + below);
      }
      int producers = Math.min(options.parallelism(), ranges);
      return new PrefetchDecision(
          true, producers, ranges + " ranges, estimated " + bytes + " bytes >= " + threshold);
    }
    // Several files: later files are planned lazily, so estimate from the first one.
    long estimate = bytes > Long.MAX_VALUE / fileCount ? Long.MAX_VALUE : bytes * fileCount;
    if (estimate < threshold) {
      return new PrefetchDecision(false, 0, fileCount + " files, estimated " + estimate + below);
    }
    return new PrefetchDecision(
        true, options.parallelism(), fileCount + " files, estimated " + estimate + " bytes");
  }

  /** prefetch.min-read-bytes, or the format's own threshold when the plan has one. */
  private static String thresholdName(ReadOptions options, FilePlan first, long threshold) {
    return threshold == options.minReadBytes()
        ? ReadOptions.PREFETCH_MIN_READ_BYTES
        : first.formatName() + " prefetch threshold";
  }
}
