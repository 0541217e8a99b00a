package dev.prefetch.parquet.internal;

import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Whether every data page of a column chunk is dictionary-encoded, from the chunk's metadata alone:
 * the page encoding statistics where the writer wrote them (parquet-java since 1.9, Arrow C++),
 * else the chunk's list of encodings, which answers only when it holds nothing but dictionary and
 * level encodings (parquet-java's version 1 pages, DuckDB). A list that also holds PLAIN could mean
 * a dictionary page (format version 2 writes it PLAIN) or a writer's fallback to plain pages, so it
 * counts as not wholly dictionary-encoded.
 */
final class DictionaryChunks {

  /** Encodings of levels, which say nothing about the values. */
  private static final Set<Encoding> LEVELS = EnumSet.of(Encoding.RLE, Encoding.BIT_PACKED);

  private DictionaryChunks() {}

  /** Whether every data page of {@code chunk} (null: not known) holds dictionary ids. */
  static boolean wholly(ColumnChunkMetaData chunk) {
    if (chunk == null) {
      return false;
    }
    EncodingStats stats = chunk.getEncodingStats();
    if (stats != null) {
      return stats.hasDictionaryEncodedPages() && !stats.hasNonDictionaryEncodedPages();
    }
    Set<Encoding> encodings = chunk.getEncodings();
    boolean dictionary = false;
    for (Encoding encoding : encodings) {
      if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
        dictionary = true;
      } else if (!LEVELS.contains(encoding)) {
        return false;
      }
    }
    return dictionary;
  }
}
