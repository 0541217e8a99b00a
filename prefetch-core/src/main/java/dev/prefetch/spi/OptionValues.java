package dev.prefetch.spi;

import java.util.Locale;

/**
 * Parses and checks option values: the one set of rules for {@link ReadOptions}' own keys and for
 * the option classes of the formats, which parse their entries of {@link
 * ReadOptions#formatProperties()}. Every failure is an {@link IllegalArgumentException} whose
 * message names the key and quotes the bad value.
 */
public final class OptionValues {

  private OptionValues() {}

  /** {@code true} or {@code false}, in any case. */
  public static boolean parseBoolean(String key, String value) {
    String v = value.trim();
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(key + " must be true or false: '" + value + "'");
  }

  /** A decimal integer. */
  public static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer: '" + value + "'");
    }
  }

  /**
   * A byte size: digits with an optional binary suffix {@code k}, {@code m}, {@code g}, {@code t}
   * (also written {@code kb}, {@code KiB}, ...; {@code 64m} is 64 MiB), blanks and underscores
   * ignored.
   */
  public static long parseBytes(String key, String value) {
    String v = value.toLowerCase(Locale.ROOT).replace("_", "").trim();
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    String unit = v.substring(end).trim();
    if (end == 0) {
      throw new IllegalArgumentException(
          key + " must be a byte size such as 1048576 or 64m: '" + value + "'");
    }
    int shift =
        switch (unit) {
          case "", "b" -> 0;
          case "k", "kb", "kib" -> 10;
          case "m", "mb", "mib" -> 20;
          case "g", "gb", "gib" -> 30;
          case "t", "tb", "tib" -> 40;
          default ->
              throw new IllegalArgumentException(
                  key + " has an unknown size unit '" + unit + "': '" + value + "'");
        };
    try {
      long number = Long.parseLong(v.substring(0, end));
      if (number > (Long.MAX_VALUE >> shift)) {
        throw new IllegalArgumentException(key + " is too large: '" + value + "'");
      }
      return number << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " is too large: '" + value + "'");
    }
  }

  /** {@code value} itself when inside {@code [min, max]}. */
  public static int checkRange(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
    return value;
  }

  /** {@code value} itself when inside {@code [min, max]}. */
  public static long checkRange(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(key + " must be in [" + min + ", " + max + "]: " + value);
    }
    return value;
  }
}
