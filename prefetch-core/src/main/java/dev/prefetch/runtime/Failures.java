package dev.prefetch.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import dev.prefetch.spi.ReadRange;

/** Turns whatever a format throws into the one exception readers raise. */
final class Failures {

  private Failures() {
  }

  /** {@code t} itself when it already is a {@link ReadException}, else a wrapper naming the range. */
  static ReadException wrap(DataFile file, ReadRange range, Throwable t) {
    if (t instanceof ReadException read) {
      return read;
    }
    return new ReadException(file, range, t);
  }
}
