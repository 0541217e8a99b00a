package dev.prefetch.parquet.internal.page;

import dev.prefetch.spi.ByteArrayPool;
import java.nio.ByteBuffer;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The one place that chooses the values decoder of a data page from its encoding and the column's
 * physical type; every encoding of the format has a decoder of its own here (PLAIN, the dictionary
 * encodings, RLE booleans, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT), and a pair the format does not define fails naming the column. Holds the
 * column chunk's dictionary, decoded once when the first dictionary-encoded page asks for it.
 *
 * <p>Confined to one thread; one instance per column chunk.
 */
public final class ValuesDecoders {

  /** Where the chunk's dictionary page comes from, read at most once. */
  public interface DictionarySource {
    DictionaryPage readDictionaryPage();
  }

  private final ColumnDescriptor column;
  private final PrimitiveTypeName type;
  private final int fixedLength;
  private final DictionarySource dictionarySource;

  /** Where the dictionary page's array goes back once decoded; null: nowhere. */
  private final ByteArrayPool pool;

  private Dictionary dictionary;

  public ValuesDecoders(ColumnDescriptor column, DictionarySource dictionarySource) {
    this(column, dictionarySource, null);
  }

  /**
   * @param pool the pool the chunk's pages were decompressed into, which gets the dictionary page's
   *     array back once the dictionary is decoded into arrays of its own; or null
   */
  public ValuesDecoders(
      ColumnDescriptor column, DictionarySource dictionarySource, ByteArrayPool pool) {
    this.pool = pool;
    this.column = column;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    this.fixedLength = column.getPrimitiveType().getTypeLength();
    this.dictionarySource = dictionarySource;
  }

  /**
   * The decoder of {@code count} values (at most: nulls have none) encoded in {@code
   * data[pos..end)}.
   *
   * @throws IllegalStateException for an encoding the format does not define for the column's type
   */
  public ValuesDecoder forPage(Encoding encoding, byte[] data, int pos, int end, int count) {
    if (!defined(encoding)) {
      throw new IllegalStateException(
          "column " + column + ": " + encoding + " is not an encoding of " + type + " values");
    }
    return switch (encoding) {
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> new DictionaryValues(dictionary(), data, pos, end);
      case RLE -> new RleBooleanValues(data, pos, end);
      case DELTA_BINARY_PACKED -> new DeltaBinaryPackedValues(data, pos, end, count);
      case DELTA_LENGTH_BYTE_ARRAY -> new DeltaLengthByteArrayValues(data, pos, end, count);
      case DELTA_BYTE_ARRAY -> new DeltaByteArrayValues(data, pos, end, count);
      case BYTE_STREAM_SPLIT -> new ByteStreamSplitValues(data, pos, end, type, width());
      default -> new PlainValues(data, pos, end, type, fixedLength);
    };
  }

  /** Whether the format defines {@code encoding} for values of the column's type. */
  private boolean defined(Encoding encoding) {
    return switch (encoding) {
      case PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY -> true;
      case RLE -> type == PrimitiveTypeName.BOOLEAN;
      case DELTA_BINARY_PACKED ->
          type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64;
      case DELTA_LENGTH_BYTE_ARRAY -> type == PrimitiveTypeName.BINARY;
      case DELTA_BYTE_ARRAY ->
          type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
      case BYTE_STREAM_SPLIT ->
          type != PrimitiveTypeName.BOOLEAN
              && type != PrimitiveTypeName.BINARY
              && type != PrimitiveTypeName.INT96;
      default -> false;
    };
  }

  /** The bytes of one fixed-width value of the column's type. */
  private int width() {
    return switch (type) {
      case INT32, FLOAT -> 4;
      case INT64, DOUBLE -> 8;
      default -> fixedLength;
    };
  }

  private Dictionary dictionary() {
    if (dictionary == null) {
      DictionaryPage page = dictionaryPage();
      ByteBuffer bytes = ChunkPages.heapBuffer(page.getBytes());
      dictionary =
          Dictionary.decode(
              bytes.array(),
              bytes.arrayOffset() + bytes.position(),
              bytes.arrayOffset() + bytes.limit(),
              page.getDictionarySize(),
              type,
              fixedLength);
      if (pool != null) {
        // Decoded into arrays of its own: the page is read. Without this, a dictionary page took
        // an array from the pool for every chunk and never gave it back.
        pool.give(bytes.array());
      }
    }
    return dictionary;
  }

  private DictionaryPage dictionaryPage() {
    DictionaryPage page = dictionarySource.readDictionaryPage();
    if (page == null) {
      throw new IllegalStateException(
          "column " + column + " has dictionary-encoded pages but no dictionary page");
    }
    return page;
  }
}
