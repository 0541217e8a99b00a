package dev.prefetch.parquet.internal.flat;

/**
 * A value of the file outside the range of the type it is read as, which a decoder throws with a
 * message saying what does not fit. Either the file cannot hold such a value from any writer
 * ({@link #corruptFile()}: the reader reports a corrupt file), or the read asked for a narrower
 * type than the value needs (an INT96 timestamp beyond 1677..2262 read as nanoseconds): the file is
 * valid and the reader reports a read error naming the option.
 */
public final class ValueOutOfRange extends ArithmeticException {

  private static final long serialVersionUID = 1L;

  private final boolean corruptFile;

  ValueOutOfRange(String message, boolean corruptFile) {
    super(message);
    this.corruptFile = corruptFile;
  }

  /** Whether no valid file holds the value (else the read's options do not fit it). */
  public boolean corruptFile() {
    return corruptFile;
  }
}
