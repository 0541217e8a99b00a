package dev.prefetch.parquet.internal.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The one place that chooses the values decoder of a data page from its encoding: PLAIN, the
 * dictionary encodings and DELTA_BINARY_PACKED (INT32, INT64) have decoders of our own; every other
 * encoding goes to parquet-hadoop's value reader through {@link HadoopValues}. Holds the column
 * chunk's dictionary, decoded once when the first dictionary-encoded page asks for it.
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
  private DictionaryPage dictionaryPage;
  private org.apache.parquet.column.Dictionary hadoopDictionary;

  public ValuesDecoders(ColumnDescriptor column, DictionarySource dictionarySource) {
    this.column = column;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    this.fixedLength = column.getPrimitiveType().getTypeLength();
    this.dictionarySource = dictionarySource;
  }

  /** The decoder of {@code count} values (at most) encoded in {@code data[pos..end)}. */
  public ValuesDecoder forPage(Encoding encoding, byte[] data, int pos, int end, int count) {
    switch (encoding) {
      case PLAIN:
        return new PlainValues(data, pos, end, type, fixedLength);
      case PLAIN_DICTIONARY:
      case RLE_DICTIONARY:
        return new DictionaryValues(dictionary(), data, pos, end);
      case DELTA_BINARY_PACKED:
        if (type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64) {
          return new DeltaBinaryPackedValues(data, pos, end, count);
        }
        break;
      default:
        break;
    }
    return new HadoopValues(
        column,
        encoding,
        encoding.usesDictionary() ? hadoopDictionary() : null,
        count,
        ByteBuffer.wrap(data, pos, end - pos).slice());
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

  private org.apache.parquet.column.Dictionary hadoopDictionary() {
    if (hadoopDictionary == null) {
      DictionaryPage page = dictionaryPage();
      try {
        hadoopDictionary = page.getEncoding().initDictionary(column, page);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the dictionary of " + column, e);
      }
    }
    return hadoopDictionary;
  }

  private DictionaryPage dictionaryPage() {
    if (dictionaryPage == null) {
      DictionaryPage page = dictionarySource.readDictionaryPage();
      if (page == null) {
        throw new IllegalStateException(
            "column " + column + " has dictionary-encoded pages but no dictionary page");
      }
      try {
        // The page's bytes may be a one-shot decompressing stream: copy them once, since both our
        // dictionary and parquet-hadoop's may read them.
        dictionaryPage = page.copy();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the dictionary of " + column, e);
      }
    }
    return dictionaryPage;
  }
}
