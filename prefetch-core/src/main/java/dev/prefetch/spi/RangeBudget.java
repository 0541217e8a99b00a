package dev.prefetch.spi;

import dev.prefetch.ReadOptions;

/**
 * How the runtime will read a file's ranges, for the format to size them: how many producers may
 * read them at once and how far a producer can work ahead of the consumer. The runtime computes it
 * once per read ({@link #of}) and passes it to {@link FileFormat#plan}, so every format cuts its
 * ranges by the same rule.
 *
 * <p>Why ranges have a length bound: the consumer takes ranges in row order, so a producer holding
 * a later range can decode only its queue's worth ({@code prefetch.queue-capacity x
 * read.batch-size} rows) before it waits; a range longer than that leaves the other producers idle
 * for the rest of it. With one producer (or none) there is no one to keep busy, and ranges are
 * unbounded.
 *
 * @param producers the producers that may read the file's ranges at once: {@code
 *     prefetch.parallelism} when prefetching is enabled, 1 on the single-reader path
 * @param lookAheadRows the most rows a range should hold, {@link #UNBOUNDED} when any length will
 *     do
 */
public record RangeBudget(int producers, long lookAheadRows) {

  /** {@link #lookAheadRows()} of a budget without a length bound. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /** A single reader's budget: one producer, no length bound. */
  public static final RangeBudget SINGLE_READER = new RangeBudget(1, UNBOUNDED);

  public RangeBudget {
    if (producers < 1) {
      throw new IllegalArgumentException("producers must be at least 1: " + producers);
    }
    if (lookAheadRows < 1) {
      throw new IllegalArgumentException("lookAheadRows must be at least 1: " + lookAheadRows);
    }
  }

  /** The budget of a read with {@code options}; see the class comment for the rule. */
  public static RangeBudget of(ReadOptions options) {
    if (!options.prefetchEnabled()) {
      return SINGLE_READER;
    }
    int producers = options.parallelism();
    if (producers < 2) {
      return new RangeBudget(producers, UNBOUNDED);
    }
    // at most 2^16 batches of fewer than 2^31 rows: no overflow
    return new RangeBudget(producers, (long) options.queueCapacity() * options.batchSize());
  }

  /**
   * The budget of each file of a read of {@code fileCount} files with {@code options}: as {@link
   * #of(ReadOptions)}, with the producers shared among the files ({@code ceil(producers /
   * fileCount)}), since producers claim ranges across files: a file need not be cut into ranges for
   * every producer when the other files keep them busy (a small file would otherwise be sliced, or
   * have its page indexes read, for nothing). The look-ahead bound is unchanged.
   */
  public static RangeBudget of(ReadOptions options, int fileCount) {
    if (fileCount < 1) {
      throw new IllegalArgumentException("fileCount must be at least 1: " + fileCount);
    }
    RangeBudget whole = of(options);
    if (fileCount == 1 || whole.producers == 1) {
      return whole;
    }
    int share = (whole.producers + fileCount - 1) / fileCount;
    return new RangeBudget(share, whole.lookAheadRows);
  }

  /** Whether ranges have a length bound. */
  public boolean bounded() {
    return lookAheadRows != UNBOUNDED;
  }

  /** Whether {@code rows} rows make a range longer than the look-ahead. */
  public boolean longerThanLookAhead(long rows) {
    return rows > lookAheadRows;
  }

  /**
   * The fewest ranges {@code rows} rows can be cut into so that none is longer than the look-ahead.
   */
  public long minRangesFor(long rows) {
    if (rows <= lookAheadRows) {
      return 1;
    }
    return (rows - 1) / lookAheadRows + 1;
  }
}
