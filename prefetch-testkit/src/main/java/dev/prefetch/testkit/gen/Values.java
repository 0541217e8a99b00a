package dev.prefetch.testkit.gen;

import java.nio.charset.StandardCharsets;

/**
 * The generated values, as pure functions of (seed, row, column): both writers call the same
 * functions, so a Parquet and an ORC file generated with the same parameters hold the same values,
 * and a regenerated file is identical whatever the writer's buffering.
 */
public final class Values {

  /** Epoch micros of the first generated timestamp (2020-09-13T12:26:40Z). */
  static final long FIRST_TIMESTAMP_MICROS = 1_600_000_000_000_000L;

  /** Days since the epoch of the first generated date (2019-04-14). */
  static final int FIRST_DAY = 18_000;

  private static final String[] CATEGORIES = {
    "books", "garden", "music", "toys", "games", "tools", "sports", "food", "health", "beauty",
    "office", "travel"
  };
  private static final byte[][] CATEGORY_BYTES = new byte[CATEGORIES.length][];

  static {
    for (int i = 0; i < CATEGORIES.length; i++) {
      CATEGORY_BYTES[i] = CATEGORIES[i].getBytes(StandardCharsets.UTF_8);
    }
  }

  private Values() {}

  /** A well-mixed 64-bit value for one cell (splitmix64 finalizer over the coordinates). */
  public static long hash(long seed, long row, int column) {
    long z = seed * 0x9E3779B97F4A7C15L + row * 0xBF58476D1CE4E5B9L + column * 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A value in {@code [0, bound)}. */
  static int below(long hash, int bound) {
    return (int) Long.remainderUnsigned(hash, bound);
  }

  static double unitDouble(long hash) {
    return (hash >>> 11) * 0x1.0p-53;
  }

  static byte[] category(long hash) {
    return CATEGORY_BYTES[below(hash, CATEGORY_BYTES.length)];
  }

  /** A high-cardinality string: "customer-" and 16 hex digits. */
  static byte[] customer(long hash) {
    byte[] out = new byte[25];
    byte[] prefix = {'c', 'u', 's', 't', 'o', 'm', 'e', 'r', '-'};
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    for (int i = 0; i < 16; i++) {
      int nibble = (int) (hash >>> (60 - 4 * i)) & 0xF;
      out[9 + i] = (byte) (nibble < 10 ? '0' + nibble : 'a' + nibble - 10);
    }
    return out;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
