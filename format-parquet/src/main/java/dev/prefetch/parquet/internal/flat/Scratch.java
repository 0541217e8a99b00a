package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.BinaryBuilder;

/**
 * An adapter's own array of physical values that are converted into the vector's array, reused
 * batch after batch (its contents never reach a vector).
 */
final class Scratch {

  private int[] ints = new int[0];
  private long[] longs = new long[0];
  private byte[] bytes = new byte[0];
  private int[] offsets = new int[1];

  int[] ints(int length) {
    if (ints.length < length) {
      ints = new int[length];
    }
    return ints;
  }

  long[] longs(int length) {
    if (longs.length < length) {
      longs = new long[length];
    }
    return longs;
  }

  /** A builder over this scratch's byte arrays, for {@code rows} values of about {@code width}. */
  BinaryBuilder builder(int rows, int width) {
    long needed = (long) rows * width;
    if (bytes.length < needed && needed <= Integer.MAX_VALUE - 8) {
      bytes = new byte[(int) needed];
    }
    if (offsets.length < rows + 1) {
      offsets = new int[rows + 1];
    }
    return new BinaryBuilder(bytes, offsets);
  }

  /** Keeps the arrays of a builder from {@link #builder}, which may have grown them. */
  void keep(BinaryBuilder builder) {
    bytes = builder.data();
    offsets = builder.offsets();
  }
}
