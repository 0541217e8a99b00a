package dev.prefetch.testkit.scan;

import java.util.Locale;

/**
 * What a scan by our reader feeds every value it reads to: the work that stands for the engine's on
 * the rows, which a timed scan includes.
 */
public enum ScanConsumer {
  /**
   * The canonical {@link dev.prefetch.testing.Checksum}: a content check that equals the format
   * library's and every other reader's, four hash lanes with a multiply and a rotation per value.
   */
  CHECKSUM,

  /**
   * {@link ValueSums}: a sum per column and a hash of each string's bytes, the least work that
   * still touches every value, as an engine's cheapest full aggregate; its value is comparable only
   * with other sums of the same rows.
   */
  SUMS;

  /** The name on the command line and in JSON: {@code checksum} or {@code sums}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
