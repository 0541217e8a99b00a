package dev.prefetch.internal.runtime;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import dev.prefetch.spi.ReadRange;
import java.io.UncheckedIOException;

/**
 * Turns whatever a format or filesystem throws into the two exceptions readers raise: a {@link
 * CorruptFileException} when the cause says the file is corrupt (also wrapped in an {@link
 * UncheckedIOException}), else a {@link ReadException}; both name the file and range.
 */
final class Failures {

  private Failures() {}

  /** {@code t} itself when it already names its file, else a wrapper naming file and range. */
  static ReadException wrap(DataFile file, ReadRange range, Throwable t) {
    if (t instanceof ReadException read && read.file() != null) {
      return read;
    }
    Throwable cause =
        t instanceof UncheckedIOException unchecked && unchecked.getCause() != null
            ? unchecked.getCause()
            : t;
    if (cause instanceof CorruptFileException corrupt) {
      return new CorruptFileException(file, range, corrupt);
    }
    if (cause instanceof ReadException read && read.file() != null) {
      return read;
    }
    return new ReadException(file, range, t);
  }
}
