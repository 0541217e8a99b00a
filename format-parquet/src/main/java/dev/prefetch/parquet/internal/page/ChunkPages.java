package dev.prefetch.parquet.internal.page;

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
 * decoder has copied the values it read into a batch's own arrays.
 *
 * <p>Confined to one thread; one instance per column chunk.
 */
public final class ChunkPages {

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final int maxRepetitionLevel;
  private final int maxDefinitionLevel;
  private final int repetitionBitWidth;
  private final int levelBitWidth;
  private final ValuesDecoders decoders;

  /** Where decompressed pages' arrays go back once read; null: nowhere. */
  private final ByteArrayPool pool;

  /** The arrays of the current page (values, and the levels of a page v2). */
  private byte[] pageArray;

  private byte[] levelArray;
  private byte[] repetitionArray;

  private int valueCount;
  private long firstRowIndex;
  private LevelRuns repetitionLevels;
  private LevelRuns definitionLevels;

  /** Where the levels just read end in the page (v1). */
  private int levelsEnd;

  private ValuesDecoder values;

  /**
   * @param column a leaf column
   * @param pages its pages in one row group (or the pages of a filtered read of one)
   * @param pool the pool whose arrays the pages were decompressed into, or null
   */
  public ChunkPages(ColumnDescriptor column, PageReader pages, ByteArrayPool pool) {
    this.column = column;
    this.pages = pages;
    this.pool = pool;
    this.maxRepetitionLevel = column.getMaxRepetitionLevel();
    this.maxDefinitionLevel = column.getMaxDefinitionLevel();
    this.repetitionBitWidth = BytesUtils.getWidthFromMaxInt(maxRepetitionLevel);
    this.levelBitWidth = BytesUtils.getWidthFromMaxInt(maxDefinitionLevel);
    this.decoders = new ValuesDecoders(column, pages::readDictionaryPage);
  }

  public ColumnDescriptor column() {
    return column;
  }

  /**
   * Opens the next data page, giving the current one's arrays back.
   *
   * @return false when the chunk has no more pages
   */
  public boolean next() {
    if (pool != null) {
      pool.give(pageArray);
      pool.give(levelArray);
      pool.give(repetitionArray);
    }
    pageArray = null;
    levelArray = null;
    repetitionArray = null;
    DataPage page = pages.readPage();
    if (page == null) {
      return false;
    }
    if (page instanceof DataPageV1 v1) {
      openV1(v1);
    } else if (page instanceof DataPageV2 v2) {
      openV2(v2);
    } else {
      throw new IllegalStateException("unknown page " + page.getClass().getName());
    }
    Optional<Long> first = page.getFirstRowIndex();
    firstRowIndex = first.isPresent() ? first.get() : -1;
    return true;
  }

  /** Entries (levels) of the current page: its rows, for a flat column. */
  public int valueCount() {
    return valueCount;
  }

  /**
   * The row, within the row group, of the current page's first value, from the offset index; -1
   * when the pages do not carry it (then they are all of the chunk's pages, in order).
   */
  public long firstRowIndex() {
    return firstRowIndex;
  }

  /** The repetition levels of the current page, or null when the column is not repeated. */
  public LevelRuns repetitionLevels() {
    return repetitionLevels;
  }

  /** The definition levels of the current page, or null when the column is required. */
  public LevelRuns definitionLevels() {
    return definitionLevels;
  }

  /** The decoder of the current page's non-null values. */
  public ValuesDecoder values() {
    return values;
  }

  private void openV1(DataPageV1 page) {
    int count = page.getValueCount();
    ByteBuffer buffer = heapBuffer(page.getBytes());
    byte[] data = buffer.array();
    pageArray = data;
    int pos = buffer.arrayOffset() + buffer.position();
    int end = buffer.arrayOffset() + buffer.limit();
    repetitionLevels = null;
    if (maxRepetitionLevel > 0) {
      repetitionLevels =
          levelsV1(
              page.getRlEncoding(),
              ValuesType.REPETITION_LEVEL,
              repetitionBitWidth,
              data,
              pos,
              end,
              count);
      pos = levelsEnd;
    }
    definitionLevels = null;
    if (maxDefinitionLevel > 0) {
      definitionLevels =
          levelsV1(
              page.getDlEncoding(),
              ValuesType.DEFINITION_LEVEL,
              levelBitWidth,
              data,
              pos,
              end,
              count);
      pos = levelsEnd;
    }
    values = decoders.forPage(page.getValueEncoding(), data, pos, end, count);
    valueCount = count;
  }

  /** Levels of a page v1 at {@code pos}; sets {@link #levelsEnd} to where they end. */
  private LevelRuns levelsV1(
      Encoding encoding,
      ValuesType levelType,
      int bitWidth,
      byte[] data,
      int pos,
      int end,
      int count) {
    String kind =
        levelType == ValuesType.REPETITION_LEVEL ? "repetition levels" : "definition levels";
    if (encoding == Encoding.RLE) {
      int length = LittleEndian.length(data, pos, end, kind, column);
      levelsEnd = pos + 4 + length;
      return new RleBitPackedDecoder(data, pos + 4, pos + 4 + length, bitWidth);
    }
    LevelRuns levels = bitPackedLevels(encoding, levelType, kind, bitWidth, data, pos, end, count);
    levelsEnd = pos + (int) (((long) count * bitWidth + 7) / 8);
    return levels;
  }

  /** Old writers' BIT_PACKED levels: parquet-hadoop's reader, into an array of runs of one. */
  private LevelRuns bitPackedLevels(
      Encoding encoding,
      ValuesType levelType,
      String kind,
      int bitWidth,
      byte[] data,
      int pos,
      int end,
      int count) {
    // BIT_PACKED levels take exactly count * width bits: a count they cannot fill is corrupt, and
    // must not size the array below.
    if (count < 0 || (long) count * bitWidth > (long) (end - pos) * 8) {
      throw new IllegalStateException(
          kind
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
    ValuesReader reader = encoding.getValuesReader(column, levelType);
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

  /** A DataPage V2's levels: RLE / bit-packed hybrid over the whole section, no length prefix. */
  private static RleBitPackedDecoder v2Levels(ByteBuffer levels, int bitWidth) {
    return new RleBitPackedDecoder(
        levels.array(),
        levels.arrayOffset() + levels.position(),
        levels.arrayOffset() + levels.limit(),
        bitWidth);
  }

  private void openV2(DataPageV2 page) {
    int count = page.getValueCount();
    if (maxRepetitionLevel == 0) {
      repetitionLevels = null;
    } else {
      ByteBuffer reps = heapBuffer(page.getRepetitionLevels());
      repetitionArray = reps.array();
      repetitionLevels = v2Levels(reps, repetitionBitWidth);
    }
    if (maxDefinitionLevel == 0) {
      definitionLevels = null;
    } else {
      ByteBuffer defs = heapBuffer(page.getDefinitionLevels());
      levelArray = defs.array();
      definitionLevels = v2Levels(defs, levelBitWidth);
    }
    ByteBuffer data = heapBuffer(page.getData());
    pageArray = data.array();
    values =
        decoders.forPage(
            page.getDataEncoding(),
            data.array(),
            data.arrayOffset() + data.position(),
            data.arrayOffset() + data.limit(),
            count);
    valueCount = count;
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
