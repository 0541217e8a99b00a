package dev.prefetch;

import java.io.IOException;

/**
 * A file that is not a valid Parquet or ORC file: wrong magic, truncated, a length or offset that
 * points outside the file, metadata or pages that do not decode. The message names the file and,
 * where known, the row group, stripe, column or page.
 */
public class CorruptFileException extends IOException {

  private static final long serialVersionUID = 1L;

  public CorruptFileException(String message) {
    super(message);
  }

  public CorruptFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
