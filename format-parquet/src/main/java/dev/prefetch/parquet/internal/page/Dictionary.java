package dev.prefetch.parquet.internal.page;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A column chunk's dictionary, decoded once into a primitive array of its physical type, so that
 * dictionary ids expand with one array load each.
 */
final class Dictionary {

  final PrimitiveTypeName type;
  final int size;
  int[] ints;
  long[] longs;
  float[] floats;
  double[] doubles;
  byte[] bytes;
  int[] offsets;

  private Dictionary(PrimitiveTypeName type, int size) {
    this.type = type;
    this.size = size;
  }

  /** Decodes a PLAIN dictionary page's bytes. */
  static Dictionary decode(
      byte[] data, int offset, int end, int size, PrimitiveTypeName type, int fixedLength) {
    if (size < 0) {
      throw new IllegalStateException("negative dictionary size " + size);
    }
    // Every entry takes at least one byte (a bit for booleans), so this bounds the allocation.
    if (size > (long) (end - offset) * 8 + 1) {
      throw new IllegalStateException(
          "dictionary of " + size + " entries in " + (end - offset) + " bytes");
    }
    Dictionary dictionary = new Dictionary(type, size);
    PlainValues plain = new PlainValues(data, offset, end, type, fixedLength);
    switch (type) {
      case INT32 -> plain.readInts(dictionary.ints = new int[size], 0, size);
      case INT64 -> plain.readLongs(dictionary.longs = new long[size], 0, size);
      case FLOAT -> plain.readFloats(dictionary.floats = new float[size], 0, size);
      case DOUBLE -> plain.readDoubles(dictionary.doubles = new double[size], 0, size);
      case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> {
        BinaryBuilder builder = new BinaryBuilder(size, end - offset);
        plain.readBinary(builder, size);
        dictionary.bytes = builder.data();
        dictionary.offsets = builder.offsets();
      }
      default -> throw new UnsupportedOperationException("dictionary of " + type);
    }
    return dictionary;
  }
}
