package dev.prefetch.cli;

/** A failure the command line reports as one line on stderr, with its exit code. */
public final class CliException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Verify or compare found different values. */
  public static final int MISMATCH = 1;

  /** A bad option or value. */
  public static final int USAGE = 2;

  /** A file could not be read. */
  public static final int READ_ERROR = 3;

  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
