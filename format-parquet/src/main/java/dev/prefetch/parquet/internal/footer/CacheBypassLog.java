package dev.prefetch.parquet.internal.footer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a read that skips the metadata cache (logger {@code dev.prefetch.cache}). */
public final class CacheBypassLog {

  private static final Logger LOG = LoggerFactory.getLogger("dev.prefetch.cache");

  private CacheBypassLog() {}

  /** The footer of {@code file} is read from storage although a cache is configured. */
  public static void bypassed(String file) {
    LOG.warn(
        "{}: the metadata cache is skipped: the file system gives no identity (length and "
            + "modification time) for the file, so its footer is read from storage",
        file);
  }
}
