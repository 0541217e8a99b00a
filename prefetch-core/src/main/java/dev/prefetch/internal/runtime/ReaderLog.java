package dev.prefetch.internal.runtime;

import dev.prefetch.DataFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator must know about a reader's path, through SLF4J (logger {@code
 * dev.prefetch.internal.runtime}): a read that falls back to the single reader, and why.
 */
final class ReaderLog {

  private static final Logger LOG = LoggerFactory.getLogger("dev.prefetch.internal.runtime");

  private ReaderLog() {}

  /**
   * Logs a single-reader decision: at INFO when prefetching was enabled but not chosen (the reason
   * names the threshold or the range count), at DEBUG when it was switched off.
   */
  static void decided(DataFile first, int fileCount, PrefetchDecision decision) {
    if (decision.prefetch()) {
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "{}{}: prefetching with {} producers: {}",
            first,
            more(fileCount),
            decision.parallelism(),
            decision.reason());
      }
    } else if (decision.reason().startsWith("prefetch.enabled=false")) {
      LOG.debug("{}{}: single reader: {}", first, more(fileCount), decision.reason());
    } else if (LOG.isInfoEnabled()) {
      LOG.info(
          "{}{}: falling back to the single reader: {}", first, more(fileCount), decision.reason());
    }
  }

  private static String more(int fileCount) {
    return fileCount > 1 ? " (+" + (fileCount - 1) + " more files)" : "";
  }
}
