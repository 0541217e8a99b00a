package dev.prefetch.orc.internal.plan;

import dev.prefetch.spi.RangeLocator;

/**
 * Where an ORC read range lies: a stripe and the row-index strides (row groups) of it the range
 * covers, both counted from 0. A file without a row index has whole-stripe ranges, with {@code
 * firstStride == lastStride == -1}.
 *
 * @param stripe the stripe's index in the file
 * @param firstStride first stride covered
 * @param lastStride last stride covered (inclusive)
 */
public record StrideLocator(int stripe, int firstStride, int lastStride) implements RangeLocator {

  public StrideLocator {
    if (stripe < 0 || firstStride < -1 || lastStride < firstStride) {
      throw new IllegalArgumentException(
          "bad locator: stripe " + stripe + ", strides " + firstStride + ".." + lastStride);
    }
  }

  /** A locator for a whole stripe of a file without a row index. */
  public static StrideLocator wholeStripe(int stripe) {
    return new StrideLocator(stripe, -1, -1);
  }

  /** "stripe 2 strides 4..7", or "stripe 2" for a whole stripe. */
  @Override
  public String describe() {
    return firstStride < 0
        ? "stripe " + stripe
        : "stripe " + stripe + " strides " + firstStride + ".." + lastStride;
  }

  @Override
  public String toString() {
    return describe();
  }
}
