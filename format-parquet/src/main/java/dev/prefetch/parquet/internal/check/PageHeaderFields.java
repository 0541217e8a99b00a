package dev.prefetch.parquet.internal.check;

import dev.prefetch.CorruptFileException;
import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.nio.ByteBuffer;

/**
 * The sizes and counts of one Parquet page header that {@link PageHeaderCheck} checks, read from
 * its Thrift compact bytes without building the header (statistics and encodings are skipped).
 *
 * <p>parquet-hadoop parses every header again into its own objects; reading only these fields here
 * keeps the check to a short loop, where a second full Thrift parse per page cost as much compiled
 * code as the decoders of a scan.
 *
 * @param length bytes of the header itself
 * @param compressedSize {@code compressed_page_size}
 * @param uncompressedSize {@code uncompressed_page_size}
 * @param v1Values a data page (v1)'s {@code num_values}; {@link #ABSENT} when it is not one
 * @param v2 a data page v2's counts; null when it is not one
 * @param dictionaryValues a dictionary page's {@code num_values}; {@link #ABSENT} when it is not
 *     one
 */
record PageHeaderFields(
    int length,
    long compressedSize,
    long uncompressedSize,
    long v1Values,
    V2 v2,
    long dictionaryValues) {

  /** The counts of a data page v2 header. */
  record V2(
      long values,
      long nulls,
      long rows,
      long definitionLevelsLength,
      long repetitionLevelsLength) {}

  /** The count of a nested header the page does not have. */
  static final long ABSENT = Long.MIN_VALUE;

  private static final int PAGE_UNCOMPRESSED_SIZE = 2;
  private static final int PAGE_COMPRESSED_SIZE = 3;
  private static final int PAGE_DATA_V1 = 5;
  private static final int PAGE_DICTIONARY = 7;
  private static final int PAGE_DATA_V2 = 8;

  /**
   * Reads the header at the start of {@code bytes}, which runs to its limit; null when the bytes do
   * not hold a whole header with both sizes (too short, or not a header: parquet-hadoop then fails
   * on it with its own error).
   */
  static PageHeaderFields read(ByteBuffer bytes, String file) {
    CompactCursor cursor = new CompactCursor(bytes, bytes.position(), bytes.limit(), file);
    try {
      long uncompressed = -1;
      long compressed = -1;
      long v1Values = ABSENT;
      long dictionaryValues = ABSENT;
      V2 v2 = null;
      cursor.beginStruct();
      while (cursor.readFieldHeader()) {
        int field = cursor.fieldId();
        if (field == PAGE_UNCOMPRESSED_SIZE && cursor.fieldType() == CompactCursor.I32) {
          uncompressed = cursor.readZigzag();
        } else if (field == PAGE_COMPRESSED_SIZE && cursor.fieldType() == CompactCursor.I32) {
          compressed = cursor.readZigzag();
        } else if (field == PAGE_DATA_V1 && cursor.fieldType() == CompactCursor.STRUCT) {
          v1Values = firstCount(cursor);
          cursor.resumeStruct(field);
        } else if (field == PAGE_DICTIONARY && cursor.fieldType() == CompactCursor.STRUCT) {
          dictionaryValues = firstCount(cursor);
          cursor.resumeStruct(field);
        } else if (field == PAGE_DATA_V2 && cursor.fieldType() == CompactCursor.STRUCT) {
          v2 = v2Counts(cursor);
          cursor.resumeStruct(field);
        } else {
          cursor.skipFieldValue(1);
        }
      }
      if (uncompressed < 0 || compressed < 0) {
        return null;
      }
      return new PageHeaderFields(
          cursor.position() - bytes.position(),
          compressed,
          uncompressed,
          v1Values,
          v2,
          dictionaryValues);
    } catch (CorruptFileException e) {
      return null;
    }
  }

  /** A nested header whose field 1 is {@code num_values} (data page v1, dictionary page). */
  private static long firstCount(CompactCursor cursor) throws CorruptFileException {
    long values = 0;
    cursor.beginStruct();
    while (cursor.readFieldHeader()) {
      if (cursor.fieldId() == 1 && cursor.fieldType() == CompactCursor.I32) {
        values = cursor.readZigzag();
      } else {
        cursor.skipFieldValue(2);
      }
    }
    return values;
  }

  private static V2 v2Counts(CompactCursor cursor) throws CorruptFileException {
    long[] counts = new long[7];
    cursor.beginStruct();
    while (cursor.readFieldHeader()) {
      int field = cursor.fieldId();
      boolean count = field == 1 || field == 2 || field == 3 || field == 5 || field == 6;
      if (count && cursor.fieldType() == CompactCursor.I32) {
        counts[field] = cursor.readZigzag();
      } else {
        cursor.skipFieldValue(2);
      }
    }
    return new V2(counts[1], counts[2], counts[3], counts[5], counts[6]);
  }
}
