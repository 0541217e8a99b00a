package dev.prefetch.parquet.internal.page;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;

/**
 * Decodes the non-null values of one data page in bulk, into the caller's primitive arrays: one
 * call per run of values, never one per value. Fixed-width values go through {@link #read} into the
 * array of the column's physical type ({@code boolean[]} for BOOLEAN, {@code int[]} for INT32,
 * {@code long[]} for INT64, {@code float[]} for FLOAT, {@code double[]} for DOUBLE): a decoder
 * looks at that type once per call, and its loops run over the typed array. INT96, BINARY and
 * FIXED_LEN_BYTE_ARRAY values are read as byte arrays ({@link #readBinary}). A method a decoder was
 * not built for throws {@link UnsupportedOperationException}.
 */
public interface ValuesDecoder {

  /** Decodes {@code count} values into {@code out[offset..offset+count)}, a primitive array. */
  default void read(Object out, int offset, int count) {
    throw unsupported(this, out.getClass().getSimpleName());
  }

  default void readBinary(BinaryBuilder out, int count) {
    throw unsupported(this, "byte arrays");
  }

  void skip(int count);

  /**
   * Where this page's values are ids into the chunk's dictionary of byte arrays: that dictionary as
   * a vector of {@code type}, the same instance for every page of the chunk. Null for any other
   * page, whose values {@link #readIds} cannot read.
   */
  default BinaryVector dictionary(DataType type) {
    return null;
  }

  /**
   * Decodes {@code count} dictionary ids into {@code out[offset..offset+count)}, each checked to
   * lie in the dictionary, for a page whose {@link #dictionary} is not null.
   */
  default void readIds(int[] out, int offset, int count) {
    throw unsupported(this, "dictionary ids");
  }

  /**
   * The failure of a read that {@code decoder} does not support: the adapters choose the array by
   * physical type, so this marks a decoder chosen for another type.
   */
  static UnsupportedOperationException unsupported(ValuesDecoder decoder, String values) {
    return new UnsupportedOperationException(
        decoder.getClass().getSimpleName() + " decodes no " + values);
  }
}
