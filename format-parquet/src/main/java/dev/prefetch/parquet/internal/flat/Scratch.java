package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.BinaryBuilder;
import java.lang.reflect.Array;

/**
 * An adapter's own array of physical values that are converted into the vector's array, reused
 * batch after batch (its contents never reach a vector).
 */
final class Scratch {

  private Object values;
  private byte[] bytes = new byte[0];
  private int[] offsets = new int[1];

  /** An array of {@code type} (a primitive array class) with at least {@code length} slots. */
  <B> B values(Class<B> type, int length) {
    if (!type.isInstance(values) || Array.getLength(values) < length) {
      values = Array.newInstance(type.getComponentType(), length);
    }
    return type.cast(values);
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
