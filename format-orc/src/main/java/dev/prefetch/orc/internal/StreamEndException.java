package dev.prefetch.orc.internal;

import java.io.EOFException;

/**
 * A decoder of orc-core read on at the end of a stripe's stream after the stream had said it was at
 * its end: the stream's bytes do not hold the values its runs (or the stripe's row count) announce,
 * so the file is corrupt. Thrown by {@link EndCheckedInStream}; the range reader reports it as a
 * {@link dev.prefetch.CorruptFileException} naming the file and stripe.
 */
final class StreamEndException extends EOFException {

  private static final long serialVersionUID = 1L;

  StreamEndException(String message) {
    super(message);
  }
}
