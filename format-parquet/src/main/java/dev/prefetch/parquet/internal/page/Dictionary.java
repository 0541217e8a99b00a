package dev.prefetch.parquet.internal.page;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A column chunk's dictionary, decoded once into a primitive array of its physical type, so that
 * dictionary ids expand with one array load each.
 */
final class Dictionary {

  final PrimitiveTypeName type;
  final int size;

  /**
   * The entries of a fixed-width type: an {@code int[]}, {@code long[]}, {@code float[]} or {@code
   * double[]}.
   */
  Object values;

  byte[] bytes;
  int[] offsets;

  /**
   * The byte-array entries as a vector, made on first use and then shared by the chunk's batches.
   */
  private BinaryVector vector;

  /**
   * Where the pages of the chunk decode ids before expanding them: kept here, since a decoder lives
   * for one page, and some writers write hundreds of small pages per chunk.
   */
  private int[] idScratch = new int[256];

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
      case INT32 -> plain.read(dictionary.values = new int[size], 0, size);
      case INT64 -> plain.read(dictionary.values = new long[size], 0, size);
      case FLOAT -> plain.read(dictionary.values = new float[size], 0, size);
      case DOUBLE -> plain.read(dictionary.values = new double[size], 0, size);
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

  /** A scratch array of at least {@code count} ids, shared by the chunk's pages (one thread). */
  int[] idScratch(int count) {
    if (idScratch.length < count) {
      idScratch = new int[Math.max(count, idScratch.length * 2)];
    }
    return idScratch;
  }

  /**
   * The entries of a dictionary of byte arrays as a vector of {@code type} (a string or binary
   * type; a column asks with one type only), or null for a dictionary of fixed-width values.
   */
  BinaryVector vector(DataType type) {
    if (bytes == null) {
      return null;
    }
    if (vector == null) {
      vector = new BinaryVector(type, size, bytes, offsets, null);
    }
    return vector;
  }

  /**
   * Writes entry {@code ids[i]} to {@code out[offset + i]} for the first {@code count} ids (in
   * range), {@code out} an array of the dictionary's fixed-width type. One loop per array type, so
   * that each is a plain indexed load and store.
   */
  void expand(int[] ids, Object out, int offset, int count) {
    if (out instanceof int[] o && values instanceof int[] v) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = v[ids[i]];
      }
    } else if (out instanceof long[] o && values instanceof long[] v) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = v[ids[i]];
      }
    } else if (out instanceof float[] o && values instanceof float[] v) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = v[ids[i]];
      }
    } else if (out instanceof double[] o && values instanceof double[] v) {
      for (int i = 0; i < count; i++) {
        o[offset + i] = v[ids[i]];
      }
    } else {
      throw new UnsupportedOperationException(
          "a dictionary of " + type + " expands into no " + out.getClass().getSimpleName());
    }
  }
}
