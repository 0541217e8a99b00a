package dev.prefetch.orc.internal.metadata;

import dev.prefetch.DataFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What an operator must know about ORC reads, through SLF4J. */
public final class OrcLog {

  private static final Logger CACHE = LoggerFactory.getLogger("dev.prefetch.cache");

  private OrcLog() {}

  /** The tail of {@code file} is read from storage although a cache is configured. */
  public static void cacheBypassed(DataFile file) {
    CACHE.warn(
        "{}: the metadata cache is skipped: the file system gives no identity (length and "
            + "modification time) for the file, so its tail is read from storage",
        file);
  }
}
