package dev.prefetch.parquet.internal.nested;

/** Capacity growth for the append path of the nested column assemblers. */
final class Growth {

  /** Largest array a JVM reliably allocates. */
  static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private Growth() {}

  /** The next capacity able to hold {@code needed} entries, at least doubling. */
  static int grow(int current, int needed) {
    if (needed < 0 || needed > MAX_ARRAY_LENGTH) {
      throw new IllegalStateException(
          "a batch needs more than "
              + MAX_ARRAY_LENGTH
              + " entries in one array; use a smaller read.batch-size");
    }
    long next = Math.max(16L, (long) current * 2);
    return (int) Math.min(MAX_ARRAY_LENGTH, Math.max(next, needed));
  }
}
