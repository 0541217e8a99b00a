package dev.prefetch.parquet.internal.page;

import dev.prefetch.spi.ByteArrayPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;

/**
 * The data pages of one column chunk, opened one at a time: a page's repetition and definition
 * levels as runs and its values decoder ({@link ValuesDecoders}), for page v1 and v2. Flat columns
 * and the leaves of nested ones read their pages here. parquet-hadoop's {@link PageReader} supplies
 * the decompressed pages (codecs and checksums are its own).
 *
 * <p>Buffers: a page's arrays belong to this class while the page is current; opening the next page
 * gives them back to the {@link ByteArrayPool} they were decompressed into, since by then every
 * decoder has copied the values it read into a batch's own arrays; {@link #release} gives back the
 * last one when the reader leaves the chunk.
 *
 * <p>Confined to one thread; one instance per column chunk.
 */
public final class ChunkPages {

  /**
   * The current data page: its entries (levels; its rows, for a flat column), the row within the
   * row group of its first value, from the offset index (-1 when the pages do not carry it: then
   * they are all of the chunk's pages, in order), its repetition and definition levels (null when
   * the column is not repeated, or required), and the decoder of its non-null values.
   */
  public record Page(
      int valueCount,
      long firstRowIndex,
      LevelRuns repetitionLevels,
      LevelRuns definitionLevels,
      ValuesDecoder values) {}

  /** One kind of levels of the column; {@code lent} is where its page v2 array is kept. */
  private record Levels(String name, ValuesType type, int max, int bitWidth, int lent) {
    Levels(String name, ValuesType type, int max, int lent) {
      this(name, type, max, BytesUtils.getWidthFromMaxInt(max), lent);
    }
  }

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final Levels repetition;
  private final Levels definition;
  private final ValuesDecoders decoders;

  /** Where decompressed pages' arrays go back once read; null: nowhere. */
  private final ByteArrayPool pool;

  /** The arrays of the current page: its values, and the levels of a page v2. */
  private final byte[][] lent = new byte[3][];

  /** Where the levels just read end in the page (v1). */
  private int levelsEnd;

  /**
   * @param column a leaf column
   * @param pages its pages in one row group (or the pages of a filtered read of one)
   * @param pool the pool whose arrays the pages were decompressed into, or null
   */
  public ChunkPages(ColumnDescriptor column, PageReader pages, ByteArrayPool pool) {
    this.column = column;
    this.pages = pages;
    this.pool = pool;
    this.repetition =
        new Levels(
            "repetition levels", ValuesType.REPETITION_LEVEL, column.getMaxRepetitionLevel(), 1);
    this.definition =
        new Levels(
            "definition levels", ValuesType.DEFINITION_LEVEL, column.getMaxDefinitionLevel(), 2);
    this.decoders = new ValuesDecoders(column, pages::readDictionaryPage, pool);
  }

  public ColumnDescriptor column() {
    return column;
  }

  /**
   * Opens the next data page, giving the current one's arrays back.
   *
   * @return the page, or null when the chunk has no more pages
   */
  public Page next() {
    release();
    DataPage page = pages.readPage();
    if (page == null) {
      return null;
    }
    Optional<Long> first = page.getFirstRowIndex();
    long firstRowIndex = first.isPresent() ? first.get() : -1;
    if (page instanceof DataPageV1 v1) {
      return openV1(v1, firstRowIndex);
    } else if (page instanceof DataPageV2 v2) {
      return openV2(v2, firstRowIndex);
    }
    throw new IllegalStateException("unknown page " + page.getClass().getName());
  }

  /**
   * Gives the current page's arrays back, once the reader is done with the chunk: the last page of
   * a chunk (with writers that write one page per chunk, its only page) is otherwise never given
   * back, and every chunk would decompress into a new array. The page must not be read after.
   */
  public void release() {
    for (int i = 0; i < lent.length; i++) {
      if (pool != null) {
        pool.give(lent[i]);
      }
      lent[i] = null;
    }
  }

  /**
   * The row (within the row group) where {@code page} starts: its first row index where the pages
   * carry one, else {@code nextRow}, the row after the previous page.
   *
   * @throws IllegalStateException when the page starts before {@code nextRow}
   */
  public long startRow(Page page, long nextRow) {
    long first = page.firstRowIndex();
    if (first < 0) {
      return nextRow;
    }
    if (first < nextRow) {
      throw new IllegalStateException(
          "a page of column "
              + column
              + " starts at row "
              + first
              + ", before row "
              + nextRow
              + " where the previous one ended");
    }
    return first;
  }

  private Page openV1(DataPageV1 page, long firstRowIndex) {
    int count = page.getValueCount();
    ByteBuffer buffer = heapBuffer(page.getBytes());
    byte[] data = buffer.array();
    lent[0] = data;
    int end = buffer.arrayOffset() + buffer.limit();
    levelsEnd = buffer.arrayOffset() + buffer.position();
    LevelRuns reps = levelsV1(repetition, page.getRlEncoding(), data, levelsEnd, end, count);
    LevelRuns defs = levelsV1(definition, page.getDlEncoding(), data, levelsEnd, end, count);
    ValuesDecoder values = decoders.forPage(page.getValueEncoding(), data, levelsEnd, end, count);
    return new Page(count, firstRowIndex, reps, defs, values);
  }

  /**
   * Levels of a page v1 at {@code pos}, or null when the column has none of the kind; sets {@link
   * #levelsEnd} to where they end.
   */
  private LevelRuns levelsV1(
      Levels kind, Encoding encoding, byte[] data, int pos, int end, int count) {
    if (kind.max() == 0) {
      levelsEnd = pos;
      return null;
    }
    if (encoding == Encoding.RLE) {
      int length = LittleEndian.length(data, pos, end, kind.name(), column);
      levelsEnd = pos + 4 + length;
      return new RleBitPackedDecoder(data, pos + 4, pos + 4 + length, kind.bitWidth());
    }
    LevelRuns levels = bitPackedLevels(kind, encoding, data, pos, end, count);
    levelsEnd = pos + (int) (((long) count * kind.bitWidth() + 7) / 8);
    return levels;
  }

  /** Old writers' BIT_PACKED levels: parquet-hadoop's reader, into an array of runs of one. */
  private LevelRuns bitPackedLevels(
      Levels kind, Encoding encoding, byte[] data, int pos, int end, int count) {
    int bitWidth = kind.bitWidth();
    // BIT_PACKED levels take exactly count * width bits: a count they cannot fill is corrupt, and
    // must not size the array below.
    if (count < 0 || (long) count * bitWidth > (long) (end - pos) * 8) {
      throw new IllegalStateException(
          kind.name()
              + " of "
              + column
              + ": "
              + count
              + " BIT_PACKED levels of "
              + bitWidth
              + " bits do not fit the page's "
              + (end - pos)
              + " bytes");
    }
    ValuesReader reader = encoding.getValuesReader(column, kind.type());
    int[] read = new int[count];
    try {
      reader.initFromPage(count, ByteBufferInputStream.wrap(ByteBuffer.wrap(data, pos, end - pos)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int i = 0; i < count; i++) {
      read[i] = reader.readInteger();
    }
    return new LevelRuns.OfArray(read);
  }

  /**
   * A DataPage V2's levels of one kind, or null when the column has none: RLE / bit-packed hybrid
   * over the whole section, no length prefix.
   */
  private LevelRuns levelsV2(Levels kind, BytesInput section) {
    if (kind.max() == 0) {
      return null;
    }
    ByteBuffer levels = heapBuffer(section);
    lent[kind.lent()] = levels.array();
    return new RleBitPackedDecoder(
        levels.array(),
        levels.arrayOffset() + levels.position(),
        levels.arrayOffset() + levels.limit(),
        kind.bitWidth());
  }

  private Page openV2(DataPageV2 page, long firstRowIndex) {
    int count = page.getValueCount();
    LevelRuns reps = levelsV2(repetition, page.getRepetitionLevels());
    LevelRuns defs = levelsV2(definition, page.getDefinitionLevels());
    ByteBuffer data = heapBuffer(page.getData());
    lent[0] = data.array();
    ValuesDecoder values =
        decoders.forPage(
            page.getDataEncoding(),
            data.array(),
            data.arrayOffset() + data.position(),
            data.arrayOffset() + data.limit(),
            count);
    return new Page(count, firstRowIndex, reps, defs, values);
  }

  /** The bytes as a writable heap buffer: the page's own array when it has one. */
  static ByteBuffer heapBuffer(BytesInput bytes) {
    try {
      ByteBuffer buffer = bytes.toByteBuffer();
      if (buffer.hasArray() && !buffer.isReadOnly()) {
        return buffer;
      }
      return ByteBuffer.wrap(bytes.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
