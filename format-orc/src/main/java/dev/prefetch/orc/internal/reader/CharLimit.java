package dev.prefetch.orc.internal.reader;

import org.apache.hadoop.hive.ql.exec.vector.expressions.StringExpr;
import org.apache.orc.TypeDescription;

/**
 * What orc-core's reader does to {@code char(n)} and {@code varchar(n)} values after reading them:
 * a {@code char} value is cut to {@code n} characters and its trailing spaces trimmed, a {@code
 * varchar} value cut to {@code n} characters (UTF-8 characters, with orc-core's own functions, so
 * the bytes are the same). Values that need nothing keep their bytes.
 */
final class CharLimit {

  private final boolean trim;
  private final int maxLength;

  private CharLimit(boolean trim, int maxLength) {
    this.trim = trim;
    this.maxLength = maxLength;
  }

  /** The limit of a column of {@code type}, or null for a string or binary column. */
  static CharLimit of(TypeDescription type) {
    return switch (type.getCategory()) {
      case CHAR -> new CharLimit(true, type.getMaxLength());
      case VARCHAR -> new CharLimit(false, type.getMaxLength());
      default -> null;
    };
  }

  /** The length of the value {@code bytes[start, start + length)} once adjusted. */
  int adjusted(byte[] bytes, int start, int length) {
    return trim
        ? StringExpr.rightTrimAndTruncate(bytes, start, length, maxLength)
        : StringExpr.truncate(bytes, start, length, maxLength);
  }

  /**
   * Adjusts {@code count} values lying back to back in {@code bytes} from 0, whose lengths are
   * {@code lengths[0, count)}: each value is shortened as it needs, moved down over what the values
   * before it lost, and its length rewritten.
   *
   * @return the bytes of the adjusted values
   */
  long adjust(byte[] bytes, int[] lengths, int count) {
    int read = 0;
    int write = 0;
    for (int i = 0; i < count; i++) {
      int length = lengths[i];
      int kept = adjusted(bytes, read, length);
      if (write != read && kept > 0) {
        System.arraycopy(bytes, read, bytes, write, kept);
      }
      lengths[i] = kept;
      read += length;
      write += kept;
    }
    return write;
  }
}
