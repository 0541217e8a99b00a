package dev.prefetch;

import dev.prefetch.spi.ReadRange;
import java.io.IOException;

/**
 * A read that failed: the file, and the range being read when it did, with the original cause.
 *
 * <p>Raised by {@link BatchReader#next()} for a failure of any producer (the first one; the others
 * are stopped) or of the single reader.
 */
public class ReadException extends IOException {

  private static final long serialVersionUID = 1L;

  private final transient DataFile file;
  private final transient ReadRange range;

  public ReadException(DataFile file, ReadRange range, Throwable cause) {
    super(message(file, range, cause), cause);
    this.file = file;
    this.range = range;
  }

  public ReadException(DataFile file, String message, Throwable cause) {
    super("Failed to read " + file + ": " + message, cause);
    this.file = file;
    this.range = null;
  }

  private static String message(DataFile file, ReadRange range, Throwable cause) {
    String what = cause == null ? "unknown error"
        : cause.getMessage() == null ? cause.getClass().getName()
            : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return "Failed to read " + file + (range == null ? "" : " " + range.describe()) + ": " + what;
  }

  /** The file that failed. */
  public DataFile file() {
    return file;
  }

  /** The range being read, or null when the failure was outside a range (planning, opening). */
  public ReadRange range() {
    return range;
  }
}
