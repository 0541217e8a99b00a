package dev.prefetch.orc.internal.reader;

import dev.prefetch.CorruptFileException;
import java.io.IOException;

/**
 * The two bounds on what one batch's lengths (bytes of strings and binaries, elements of lists and
 * maps) may add up to, checked before anything is allocated for them, with their messages: what the
 * file can hold (more is corruption) and what the read's budget allows one batch (more, in a valid
 * file, is refused as too large for the options, not as corrupt).
 */
final class Lengths {

  private Lengths() {}

  /**
   * Checks {@code total} (of {@code rows} values) against {@code fileLimit} and {@code
   * budgetLimit}.
   *
   * @param unit what a length counts ("bytes", "elements", "entries")
   * @throws CorruptFileException above {@code fileLimit}
   * @throws BatchTooLargeException above {@code budgetLimit}
   */
  static void check(
      long total, int rows, long fileLimit, long budgetLimit, String unit, String where)
      throws IOException {
    if (total <= fileLimit && total <= budgetLimit) {
      return;
    }
    String claim = rows + " values claim " + total + " " + unit + " together";
    if (total > fileLimit) {
      throw new CorruptFileException(
          "Corrupt " + where + ": " + claim + ", more than the " + fileLimit + " it can hold");
    }
    throw new BatchTooLargeException(
        where
            + ": "
            + claim
            + ", more than the "
            + budgetLimit
            + " one batch may hold under prefetch.max-buffered-bytes; lower read.batch-size or"
            + " raise prefetch.max-buffered-bytes to read values this long");
  }
}
