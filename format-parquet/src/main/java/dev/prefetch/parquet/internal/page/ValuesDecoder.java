package dev.prefetch.parquet.internal.page;

/**
 * Decodes the non-null values of one data page in bulk, into the caller's primitive arrays: one
 * call per run of values, never one per value. Each implementation supports the methods of the
 * physical types it is built for and throws {@link UnsupportedOperationException} for the others.
 * INT96 and FIXED_LEN_BYTE_ARRAY values are read as byte arrays ({@link #readBinary}).
 */
public interface ValuesDecoder {

  void readInts(int[] out, int offset, int count);

  void readLongs(long[] out, int offset, int count);

  void readFloats(float[] out, int offset, int count);

  void readDoubles(double[] out, int offset, int count);

  void readBooleans(boolean[] out, int offset, int count);

  void readBinary(BinaryBuilder out, int count);

  void skip(int count);
}
