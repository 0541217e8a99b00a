package dev.prefetch.cli.internal;

import java.util.Locale;

/** Human-readable numbers for the command's tables. */
public final class Format {

  private Format() {}

  /** 1234567 as "1.23M", 1234 as "1.23k". */
  public static String count(double n) {
    if (n >= 1e9) {
      return String.format(Locale.ROOT, "%.2fG", n / 1e9);
    }
    if (n >= 1e6) {
      return String.format(Locale.ROOT, "%.2fM", n / 1e6);
    }
    if (n >= 1e3) {
      return String.format(Locale.ROOT, "%.2fk", n / 1e3);
    }
    return String.format(Locale.ROOT, "%.0f", n);
  }

  /** Bytes in binary units: "12.3 MiB". */
  public static String bytes(long n) {
    if (n < 0) {
      return "-";
    }
    if (n >= 1L << 30) {
      return String.format(Locale.ROOT, "%.2f GiB", n / (double) (1L << 30));
    }
    if (n >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", n / (double) (1L << 20));
    }
    if (n >= 1L << 10) {
      return String.format(Locale.ROOT, "%.1f KiB", n / (double) (1L << 10));
    }
    return n + " B";
  }

  public static String seconds(double s) {
    return String.format(Locale.ROOT, "%.3f", s);
  }
}
