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

  private final String problem;

  /**
   * @param where the file, stripe and column ("ORC file f, stripe 2, column 5")
   * @param problem what does not fit
   */
  public ValueRangeException(String where, String problem) {
    super(where + ": " + problem);
    this.problem = problem;
  }

  /** What does not fit, without the place. */
  public String problem() {
    return problem;
  }
}
