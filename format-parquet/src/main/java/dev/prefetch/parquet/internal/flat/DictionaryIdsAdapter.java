package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.parquet.internal.page.BinaryBuilder;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.util.Arrays;

/**
 * A string or binary column of a chunk whose pages are all dictionary-encoded, read as {@link
 * DictionaryVector}s: each batch gets the rows' dictionary ids, and every batch of the chunk shares
 * the chunk's one dictionary vector, so no value's bytes are copied.
 *
 * <p>The chunk's metadata said every page is dictionary-encoded; should a page say otherwise (a
 * writer's fallback to plain pages that its metadata does not admit), the batch that meets it turns
 * into a plain {@link BinaryVector}: the ids read so far are expanded into bytes and the rest of
 * the batch is read as the plain column reads it. A wrong answer is never the price of trusting the
 * metadata.
 *
 * <p>While a batch is built, a null row's id is -1, which tells the expansion to write an empty
 * value; the vector handed out carries 0 there instead, a valid id for a consumer that gathers
 * without looking at the null mask.
 */
final class DictionaryIdsAdapter implements ColumnAdapter<DictionaryIdsAdapter.Ids> {

  /** One batch under construction. */
  static final class Ids {
    final int rows;
    int[] ids;

    /** The dictionary of the ids read so far, null before the first. */
    BinaryVector dictionary;

    /** Once the batch met a page that is not dictionary-encoded: its values as bytes. */
    BinaryBuilder plain;

    Ids(int rows, int[] ids) {
      this.rows = rows;
      this.ids = ids;
    }
  }

  private static final int NULL_ID = -1;

  private final DataType type;
  private final VectorArrayPool arrays;

  /** How a batch that falls back is read from there on. */
  private final BinaryAdapter plain;

  DictionaryIdsAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
    this.plain = new BinaryAdapter(type, arrays);
  }

  @Override
  public Ids buffer(int rows) {
    return new Ids(rows, arrays.values(int[].class, rows));
  }

  @Override
  public Ids grow(Ids buffer, int capacity) {
    if (buffer.plain == null && buffer.ids.length < capacity) {
      buffer.ids = Arrays.copyOf(buffer.ids, capacity);
    }
    return buffer;
  }

  @Override
  public void decode(ValuesDecoder values, Ids buffer, int at, int count) {
    if (buffer.plain == null) {
      BinaryVector dictionary = values.dictionary(type);
      if (dictionary != null && (buffer.dictionary == null || buffer.dictionary == dictionary)) {
        buffer.dictionary = dictionary;
        values.readIds(buffer.ids, at, count);
        return;
      }
      buffer.plain = expand(buffer, at);
    }
    plain.decode(values, buffer.plain, at, count);
  }

  @Override
  public void spread(Ids buffer, int at, int count, int defined, boolean[] nulls) {
    if (buffer.plain != null) {
      plain.spread(buffer.plain, at, count, defined, nulls);
      return;
    }
    Spread.values(buffer.ids, at, count, defined, nulls);
    int[] ids = buffer.ids;
    for (int i = at; i < at + count; i++) {
      if (nulls[i]) {
        ids[i] = NULL_ID;
      }
    }
  }

  @Override
  public void nulls(Ids buffer, int at, int count) {
    if (buffer.plain != null) {
      plain.nulls(buffer.plain, at, count);
    } else {
      Arrays.fill(buffer.ids, at, at + count, NULL_ID);
    }
  }

  @Override
  public ColumnVector vector(Ids buffer, int rows, boolean[] nulls) {
    if (buffer.plain != null) {
      arrays.recycleUnused(buffer.ids);
      return plain.vector(buffer.plain, rows, nulls);
    }
    BinaryVector dictionary = buffer.dictionary;
    if (dictionary == null) {
      // Every row is null: no page gave a dictionary.
      dictionary = new BinaryVector(type, 0, new byte[0], new int[1], null);
    } else if (nulls != null && dictionary.size() > 0) {
      int[] ids = buffer.ids;
      for (int i = 0; i < rows; i++) {
        ids[i] = nulls[i] ? 0 : ids[i];
      }
    }
    return new DictionaryVector(rows, buffer.ids, dictionary, nulls);
  }

  /** The first {@code at} rows' values as bytes, from their ids; a null row's is empty. */
  private BinaryBuilder expand(Ids buffer, int at) {
    BinaryBuilder bytes = plain.buffer(buffer.rows);
    BinaryVector dictionary = buffer.dictionary;
    for (int i = 0; i < at; i++) {
      int id = buffer.ids[i];
      if (id == NULL_ID) {
        bytes.appendEmpty(1);
      } else {
        bytes.append(dictionary.data(), dictionary.start(id), dictionary.length(id));
      }
    }
    return bytes;
  }
}
