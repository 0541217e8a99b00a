package dev.prefetch.parquet.internal.footer;

import dev.prefetch.cache.FileIdentity;
import java.io.IOException;

/**
 * The identity of the file as it is now, taken again after its footer was read: a footer is cached
 * only under the identity of the version it was read from.
 */
@FunctionalInterface
public interface FileVersionCheck {

  /** The file's identity now (a new status lookup). */
  FileIdentity current() throws IOException;
}
