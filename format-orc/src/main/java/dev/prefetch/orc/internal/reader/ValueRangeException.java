package dev.prefetch.orc.internal.reader;

import java.io.IOException;

/**
 * A value of a valid ORC file that the read's types cannot hold (a timestamp outside the years 1677
 * to 2262 as nanoseconds in 64 bits). Not a {@link dev.prefetch.CorruptFileException}: the file is
 * fine. The runtime reports it as a {@link dev.prefetch.ReadException} naming the file and range,
 * with this as its cause.
 */
public final class ValueRangeException extends IOException {

  private static final long serialVersionUID = 1L;

  ValueRangeException(String message) {
    super(message);
  }
}
