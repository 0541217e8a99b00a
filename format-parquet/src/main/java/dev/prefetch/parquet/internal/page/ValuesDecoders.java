package dev.prefetch.parquet.internal.page;

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

  private Dictionary dictionary;

  public ValuesDecoders(ColumnDescriptor column, DictionarySource dictionarySource) {
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
    switch (encoding) {
      case PLAIN:
        return new PlainValues(data, pos, end, type, fixedLength);
      case PLAIN_DICTIONARY:
      case RLE_DICTIONARY:
        return new DictionaryValues(dictionary(), data, pos, end);
      case RLE:
        if (type == PrimitiveTypeName.BOOLEAN) {
          return new RleBooleanValues(data, pos, end);
        }
        break;
      case DELTA_BINARY_PACKED:
        if (type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64) {
          return new DeltaBinaryPackedValues(data, pos, end, count);
        }
        break;
      case DELTA_LENGTH_BYTE_ARRAY:
        if (type == PrimitiveTypeName.BINARY) {
          return new DeltaLengthByteArrayValues(data, pos, end, count);
        }
        break;
      case DELTA_BYTE_ARRAY:
        if (type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
          return new DeltaByteArrayValues(data, pos, end, count);
        }
        break;
      case BYTE_STREAM_SPLIT:
        switch (type) {
          case INT32, FLOAT:
            return new ByteStreamSplitValues(data, pos, end, type, 4);
          case INT64, DOUBLE:
            return new ByteStreamSplitValues(data, pos, end, type, 8);
          case FIXED_LEN_BYTE_ARRAY:
            return new ByteStreamSplitValues(data, pos, end, type, fixedLength);
          default:
            break;
        }
        break;
      default:
        break;
    }
    throw new IllegalStateException(
        "column " + column + ": " + encoding + " is not an encoding of " + type + " values");
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
