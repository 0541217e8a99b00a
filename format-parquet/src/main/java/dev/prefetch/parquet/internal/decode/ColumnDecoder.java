package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import org.apache.parquet.column.ColumnReader;

/**
 * Decodes the values of one leaf column from parquet-hadoop's {@link ColumnReader} into the
 * primitive arrays of a {@link ColumnVector}. One implementation per physical type family; the
 * reader below does the page decoding (every encoding and codec parquet-hadoop knows), so a faster
 * bulk decoder can later replace an implementation here while the value reader stays the fallback.
 *
 * <p>Two ways of use, never mixed within one batch:
 *
 * <ul>
 *   <li>{@link #decodeFlat}: a column without repetition, one value (or null) per row, decoded in
 *       one tight loop into an array of exactly {@code rows} values;
 *   <li>{@link #appendValue} / {@link #appendNull} then {@link #finish}: the leaf of a nested
 *       column, driven entry by entry by an {@link Assembler}.
 * </ul>
 *
 * Instances are confined to the thread of one range reader and reused from batch to batch.
 */
public interface ColumnDecoder {

  /** The logical type of the vectors this decoder builds. */
  DataType type();

  /**
   * Reads {@code rows} entries of a column whose maximum repetition level is 0: an entry whose
   * definition level is below {@code maxDefinitionLevel} is a null.
   */
  ColumnVector decodeFlat(ColumnReader reader, int maxDefinitionLevel, int rows);

  /** Appends the reader's current value (its definition level is the column's maximum). */
  void appendValue(ColumnReader reader);

  /** Appends a null (or a placeholder under a null parent). */
  void appendNull();

  /** A vector of the values appended since the last call; the decoder starts empty again. */
  ColumnVector finish();

  /**
   * Whether {@link #decodeBulk} decodes this column: the fast path for flat columns, straight from
   * the pages, without parquet-hadoop's value-at-a-time reader.
   */
  default boolean supportsBulk() {
    return false;
  }

  /** Reads {@code rows} rows of a flat column from its pages (only when {@link #supportsBulk}). */
  default ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    throw new UnsupportedOperationException("no bulk decoding for " + type());
  }
}
