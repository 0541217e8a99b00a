package dev.prefetch;

import dev.prefetch.spi.ReadRange;
import java.io.IOException;

/**
 * A read that failed: the file, and the range being read when it did, with the original cause.
 *
 * <p>Raised by {@link Readers#open}, {@link BatchReader#next()} (for a failure of any producer, the
 * first one, or of the single reader) and {@link BatchReader#close()}. A file that is not valid
 * raises the subtype {@link CorruptFileException}, so {@code catch (CorruptFileException e)} around
 * any of them catches exactly the bad files. Whatever the cause (an {@code IOException} of the
 * filesystem, an unchecked exception of a format library, Hadoop's {@code FSError}), it is the
 * cause of one of these two types.
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

  /**
   * For subtypes whose message already says everything ({@link CorruptFileException}); {@code file}
   * and {@code range} may be null when not known where the exception is made.
   */
  protected ReadException(String message, Throwable cause, DataFile file, ReadRange range) {
    super(message, cause);
    this.file = file;
    this.range = range;
  }

  static String message(DataFile file, ReadRange range, Throwable cause) {
    String what =
        cause == null
            ? "unknown error"
            : cause.getMessage() == null
                ? cause.getClass().getName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return "Failed to read " + file + (range == null ? "" : " " + range.describe()) + ": " + what;
  }

  /**
   * The file that failed. Never null on an exception the reader raises; may be null on a {@link
   * CorruptFileException} a format throws before the runtime names the file.
   */
  public DataFile file() {
    return file;
  }

  /** The range being read, or null when the failure was outside a range (planning, opening). */
  public ReadRange range() {
    return range;
  }
}
