package dev.prefetch;

import dev.prefetch.spi.ReadRange;

/**
 * A file that is not a valid Parquet or ORC file: wrong magic, truncated, a length or offset that
 * points outside the file, metadata or pages that do not decode. The message names the file and,
 * where known, the row group, stripe, column or page.
 *
 * <p>A {@link ReadException}: what a reader raises for a corrupt file from {@code open()}, {@code
 * next()} or {@code close()} is a {@code CorruptFileException} with its {@link #file()} (and {@link
 * #range()} where known) set, so it is caught by either type.
 */
public class CorruptFileException extends ReadException {

  private static final long serialVersionUID = 1L;

  /** A format's exception; its message names the file (the runtime adds the file and range). */
  public CorruptFileException(String message) {
    super(message, null, null, null);
  }

  public CorruptFileException(String message, Throwable cause) {
    super(message, cause, null, null);
  }

  /**
   * {@code cause} of a format, raised by the reader as failing {@code range} (null: outside a
   * range, as when opening) of {@code file}. Outside a range the format's message is kept when it
   * already names the file.
   */
  public CorruptFileException(DataFile file, ReadRange range, CorruptFileException cause) {
    super(
        range == null && String.valueOf(cause.getMessage()).contains(file.path().toString())
            ? cause.getMessage()
            : message(file, range, cause),
        cause,
        file,
        range);
  }
}
