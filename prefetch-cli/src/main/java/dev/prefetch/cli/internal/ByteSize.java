package dev.prefetch.cli.internal;

import java.util.Locale;

/** Parses byte sizes written as digits with an optional binary unit: 1048576, 64k, 256m, 2g. */
public final class ByteSize {

  private ByteSize() {}

  /** The size in bytes; a bad text is an {@link IllegalArgumentException} naming {@code what}. */
  public static long parse(String what, String text) {
    String v = text.trim().toLowerCase(Locale.ROOT);
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    if (end == 0) {
      throw new IllegalArgumentException(
          what + " must be a byte size such as 1048576 or 64m: '" + text + "'");
    }
    int shift =
        switch (v.substring(end).trim()) {
          case "", "b" -> 0;
          case "k", "kb", "kib" -> 10;
          case "m", "mb", "mib" -> 20;
          case "g", "gb", "gib" -> 30;
          default ->
              throw new IllegalArgumentException(what + " has an unknown unit: '" + text + "'");
        };
    try {
      long n = Long.parseLong(v.substring(0, end));
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new IllegalArgumentException(what + " is too large: '" + text + "'");
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " is too large: '" + text + "'");
    }
  }
}
