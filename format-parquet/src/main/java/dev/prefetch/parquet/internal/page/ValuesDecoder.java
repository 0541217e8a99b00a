package dev.prefetch.parquet.internal.page;

/**
 * Decodes the non-null values of one data page in bulk, into the caller's primitive arrays: one
 * call per run of values, never one per value. Each implementation overrides the methods of the
 * physical types it is built for; the others throw {@link UnsupportedOperationException}. INT96 and
 * FIXED_LEN_BYTE_ARRAY values are read as byte arrays ({@link #readBinary}).
 */
public interface ValuesDecoder {

  default void readInts(int[] out, int offset, int count) {
    throw unsupported(this, "ints");
  }

  default void readLongs(long[] out, int offset, int count) {
    throw unsupported(this, "longs");
  }

  default void readFloats(float[] out, int offset, int count) {
    throw unsupported(this, "floats");
  }

  default void readDoubles(double[] out, int offset, int count) {
    throw unsupported(this, "doubles");
  }

  default void readBooleans(boolean[] out, int offset, int count) {
    throw unsupported(this, "booleans");
  }

  default void readBinary(BinaryBuilder out, int count) {
    throw unsupported(this, "byte arrays");
  }

  void skip(int count);

  /**
   * The failure of a read method that {@code decoder} does not support: the adapters choose the
   * read method by physical type, so this marks a decoder chosen for another type.
   */
  private static UnsupportedOperationException unsupported(ValuesDecoder decoder, String values) {
    return new UnsupportedOperationException(
        decoder.getClass().getSimpleName() + " decodes no " + values);
  }
}
