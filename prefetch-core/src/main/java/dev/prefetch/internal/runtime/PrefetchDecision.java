package dev.prefetch.internal.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.spi.FilePlan;
import java.util.List;

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
   *
   * <p>Over several files the estimate covers the whole list, since producers claim ranges across
   * files: the first file's plan for itself, and for every later file (planned lazily, so not known
   * yet) its split length when it is a split ({@link DataFile#length()}, all columns: an upper
   * bound) or else the first file's estimate. The reason says how many files each source covers.
   * Several files always have more than one range to spread, whatever each file holds.
   */
  static PrefetchDecision decide(ReadOptions options, List<DataFile> files, FilePlan first) {
    if (!options.prefetchEnabled()) {
      return new PrefetchDecision(false, 0, "prefetch.enabled=false");
    }
    int ranges = first.ranges().size();
    long threshold = first.minReadBytes(options);
    String below = " bytes < " + thresholdName(options, first, threshold) + "=" + threshold;
    if (files.size() == 1) {
      long bytes = first.estimatedBytes();
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
    Estimate estimate = Estimate.of(files, first);
    String what = files.size() + " files, estimated " + estimate.bytes();
    if (estimate.bytes() < threshold) {
      return new PrefetchDecision(false, 0, what + below + " " + estimate.sources());
    }
    return new PrefetchDecision(
        true, options.parallelism(), what + " bytes >= " + threshold + " " + estimate.sources());
  }

  /**
   * The estimated bytes of a list of files, and where the figures come from.
   *
   * @param bytes the sum, saturated at {@link Long#MAX_VALUE}
   * @param splitLengths later files counted by their split length
   * @param firstEstimates later files counted by the first file's estimate
   */
  private record Estimate(long bytes, int splitLengths, int firstEstimates) {

    static Estimate of(List<DataFile> files, FilePlan first) {
      long perFile = first.estimatedBytes();
      long bytes = perFile;
      int splits = 0;
      for (int i = 1; i < files.size(); i++) {
        DataFile file = files.get(i);
        long add;
        if (file.isSplit()) {
          add = file.length();
          splits++;
        } else {
          add = perFile;
        }
        bytes = bytes > Long.MAX_VALUE - add ? Long.MAX_VALUE : bytes + add;
      }
      return new Estimate(bytes, splits, files.size() - 1 - splits);
    }

    /**
     * E.g. "(the first file planned, 3 by their split length, 196 by the first file's estimate)".
     */
    String sources() {
      StringBuilder out = new StringBuilder("(the first file planned");
      if (splitLengths > 0) {
        out.append(", ").append(splitLengths).append(" by their split length");
      }
      if (firstEstimates > 0) {
        out.append(", ").append(firstEstimates).append(" by the first file's estimate");
      }
      return out.append(')').toString();
    }
  }

  /** prefetch.min-read-bytes, or the format's own threshold when the plan has one. */
  private static String thresholdName(ReadOptions options, FilePlan first, long threshold) {
    return threshold == options.minReadBytes()
        ? ReadOptions.PREFETCH_MIN_READ_BYTES
        : first.formatName() + " prefetch threshold";
  }
}
