package dev.prefetch.orc.internal.reader;

import java.io.IOException;

/**
 * A batch of a valid ORC file would hold more values than the read's memory budget allows one batch
 * ({@code prefetch.max-buffered-bytes}): the read stops before orc-core allocates them. Not a
 * {@link dev.prefetch.CorruptFileException}: the file is fine, the options are too tight for it
 * (fewer rows per batch, {@code read.batch-size}, or a larger budget read it). The runtime reports
 * it as a {@link dev.prefetch.ReadException} naming the file and range, with this as its cause.
 */
public final class BatchTooLargeException extends IOException {

  private static final long serialVersionUID = 1L;

  public BatchTooLargeException(String message) {
    super(message);
  }
}
