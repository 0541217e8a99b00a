package dev.prefetch.parquet.internal.bulk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Bulk decoding of one flat (non-repeated) column chunk, page by page, straight into primitive
 * arrays: the fast path that replaces parquet-hadoop's value-at-a-time {@code ColumnReader} for
 * flat columns.
 *
 * <p>Definition levels are consumed in runs: an RLE run of the maximum level is one bulk value copy
 * ({@link ValuesDecoder}), an RLE run of a lower level is one block of nulls; bit-packed levels are
 * grouped into runs of equal definedness first. Dictionary pages are decoded once per chunk into
 * primitive arrays. PLAIN, dictionary and DELTA_BINARY_PACKED values have bulk decoders; every
 * other encoding goes through parquet-hadoop's {@link ValuesReader} ({@link FallbackValues}), so
 * nothing parquet-hadoop reads is lost.
 *
 * <p>Page-aligned slices: when the pages come from a filtered row-group read and carry their first
 * row index, the rows of the first page before {@code firstRow} are skipped.
 *
 * <p>Confined to one thread; one instance per column chunk.
 */
public final class FlatPageReader {

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final PrimitiveTypeName type;
  private final int fixedLength;
  private final int maxDefinitionLevel;
  private final int levelBitWidth;

  /** Where decompressed pages' arrays go back once read; null: nowhere. */
  private final PageBuffers buffers;

  /** Where the batch's arrays (here: null masks) come from. */
  private final ColumnArrays arrays;

  /** The arrays of the current page (definition levels and values), given back on the next. */
  private byte[] pageArray;

  private byte[] levelArray;
  private long rowsToSkip;
  private boolean firstPage = true;

  private Dictionary dictionary;
  private DictionaryPage dictionaryPage;
  private org.apache.parquet.column.Dictionary parquetDictionary;
  private boolean dictionaryLoaded;

  private int pageLeft;
  private LevelRuns levels;
  private ValuesDecoder values;

  /**
   * @param column a column whose maximum repetition level is 0
   * @param pages its pages in one row group (or the pages of a filtered read of one)
   * @param firstRow the row (within the row group) the reads start at
   * @param buffers the pool whose arrays the pages were decompressed into, or null
   * @param arrays where the arrays of the column's vectors come from
   */
  public FlatPageReader(
      ColumnDescriptor column,
      PageReader pages,
      long firstRow,
      PageBuffers buffers,
      ColumnArrays arrays) {
    if (column.getMaxRepetitionLevel() != 0) {
      throw new IllegalArgumentException("not a flat column: " + column);
    }
    this.column = column;
    this.pages = pages;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    this.fixedLength = column.getPrimitiveType().getTypeLength();
    this.maxDefinitionLevel = column.getMaxDefinitionLevel();
    this.levelBitWidth = BytesUtils.getWidthFromMaxInt(maxDefinitionLevel);
    this.rowsToSkip = firstRow;
    this.buffers = buffers;
    this.arrays = arrays;
  }

  /** Where the decoders take the arrays of the column's vectors from. */
  public ColumnArrays arrays() {
    return arrays;
  }

  /** Whether this reader decodes the column's physical type (INT96 is left to the value path). */
  public static boolean supports(ColumnDescriptor column) {
    return column.getMaxRepetitionLevel() == 0
        && column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT96;
  }

  /** A receiver of values or nulls at row positions of the caller's batch. */
  private interface Sink {
    /** Decodes {@code count} values into rows {@code at..at+count-1}. */
    void values(ValuesDecoder decoder, int at, int count);

    /**
     * Moves the {@code defined} values just decoded densely at row {@code at} to the rows of {@code
     * at..at+count-1} that {@code nulls} does not mark.
     */
    void spread(int at, int count, int defined, boolean[] nulls);

    default void nulls(int at, int count) {}
  }

  public boolean[] readInts(int[] out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readInts(out, at, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            Spread.ints(out, at, count, defined, nulls);
          }
        });
  }

  public boolean[] readLongs(long[] out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readLongs(out, at, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            Spread.longs(out, at, count, defined, nulls);
          }
        });
  }

  public boolean[] readFloats(float[] out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readFloats(out, at, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            Spread.floats(out, at, count, defined, nulls);
          }
        });
  }

  public boolean[] readDoubles(double[] out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readDoubles(out, at, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            Spread.doubles(out, at, count, defined, nulls);
          }
        });
  }

  public boolean[] readBooleans(boolean[] out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readBooleans(out, at, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            Spread.booleans(out, at, count, defined, nulls);
          }
        });
  }

  /** Appends {@code rows} values (an empty value for each null) to {@code out}. */
  public boolean[] readBinary(BinaryBuilder out, int rows) {
    return read(
        rows,
        new Sink() {
          @Override
          public void values(ValuesDecoder decoder, int at, int count) {
            decoder.readBinary(out, count);
          }

          @Override
          public void spread(int at, int count, int defined, boolean[] nulls) {
            out.spread(count, defined, nulls, at);
          }

          @Override
          public void nulls(int at, int count) {
            out.appendEmpty(count);
          }
        });
  }

  private boolean[] read(int rows, Sink sink) {
    boolean[] nulls = null;
    int done = 0;
    while (done < rows) {
      if (pageLeft == 0) {
        loadPage();
        continue;
      }
      int n = Math.min(rows - done, pageLeft);
      if (levels == null) {
        sink.values(values, done, n);
      } else {
        int i = 0;
        while (i < n) {
          int run = Math.min(levels.nextRun(), n - i);
          if (levels.isRle()) {
            if (levels.rleValue() == maxDefinitionLevel) {
              sink.values(values, done + i, run);
            } else {
              nulls = markNulls(nulls, rows, done + i, run);
              sink.nulls(done + i, run);
            }
          } else {
            // Bit-packed levels (scattered nulls): the run's defined values are decoded in one
            // call, densely, and then moved to their rows, rather than a call per stretch.
            int at = done + i;
            int defined = 0;
            for (int j = 0; j < run; j++) {
              defined += levels.packedValue(j) == maxDefinitionLevel ? 1 : 0;
            }
            if (defined == run) {
              sink.values(values, at, run);
            } else {
              nulls = nulls == null ? arrays.mask(rows) : nulls;
              for (int j = 0; j < run; j++) {
                nulls[at + j] = levels.packedValue(j) != maxDefinitionLevel;
              }
              if (defined == 0) {
                sink.nulls(at, run);
              } else {
                sink.values(values, at, defined);
                sink.spread(at, run, defined, nulls);
              }
            }
          }
          levels.consume(run);
          i += run;
        }
      }
      pageLeft -= n;
      done += n;
    }
    return nulls;
  }

  private boolean[] markNulls(boolean[] nulls, int rows, int at, int count) {
    boolean[] mask = nulls == null ? arrays.mask(rows) : nulls;
    Arrays.fill(mask, at, at + count, true);
    return mask;
  }

  /** Skips {@code rows} rows without decoding the values of whole pages. */
  public void skip(long rows) {
    while (rows > 0) {
      if (pageLeft == 0) {
        loadPage();
        continue;
      }
      if (rows >= pageLeft) {
        rows -= pageLeft;
        pageLeft = 0; // the rest of the page is dropped unread
        continue;
      }
      int n = (int) rows;
      int defined = n;
      if (levels != null) {
        defined = 0;
        int i = 0;
        while (i < n) {
          int run = Math.min(levels.nextRun(), n - i);
          if (levels.isRle()) {
            defined += levels.rleValue() == maxDefinitionLevel ? run : 0;
          } else {
            for (int j = 0; j < run; j++) {
              defined += levels.packedValue(j) == maxDefinitionLevel ? 1 : 0;
            }
          }
          levels.consume(run);
          i += run;
        }
      }
      values.skip(defined);
      pageLeft -= n;
      rows = 0;
    }
  }

  private void loadPage() {
    if (buffers != null) {
      // The current page is read to its end: nothing refers to its bytes any more.
      buffers.give(pageArray);
      buffers.give(levelArray);
    }
    pageArray = null;
    levelArray = null;
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IllegalStateException("column " + column + " ended before its last row");
    }
    if (page instanceof DataPageV1 v1) {
      openV1(v1);
    } else if (page instanceof DataPageV2 v2) {
      openV2(v2);
    } else {
      throw new IllegalStateException("unknown page " + page.getClass().getName());
    }
    if (firstPage) {
      firstPage = false;
      Optional<Long> pageFirstRow = page.getFirstRowIndex();
      if (pageFirstRow.isPresent()) {
        rowsToSkip -= pageFirstRow.get(); // rows of this page before the first wanted row
      }
      long skip = rowsToSkip;
      rowsToSkip = 0;
      if (skip < 0) {
        throw new IllegalStateException("column " + column + " starts after the wanted row");
      }
      skip(skip);
    }
  }

  private void openV1(DataPageV1 page) {
    int count = page.getValueCount();
    ByteBuffer buffer = heapBuffer(page.getBytes());
    byte[] data = buffer.array();
    pageArray = data;
    int pos = buffer.arrayOffset() + buffer.position();
    int end = buffer.arrayOffset() + buffer.limit();
    if (maxDefinitionLevel == 0) {
      levels = null;
    } else if (page.getDlEncoding() == Encoding.RLE) {
      if (end - pos < 4) {
        throw new IllegalStateException("definition levels of " + column + " past the page end");
      }
      int length =
          (data[pos] & 0xFF)
              | (data[pos + 1] & 0xFF) << 8
              | (data[pos + 2] & 0xFF) << 16
              | (data[pos + 3] & 0xFF) << 24;
      if (length < 0 || length > end - pos - 4) {
        throw new IllegalStateException(
            "definition levels of "
                + column
                + " claim "
                + length
                + " bytes, the page has "
                + (end - pos - 4));
      }
      levels = new RleBitPackedDecoder(data, pos + 4, pos + 4 + length, levelBitWidth);
      pos += 4 + length;
    } else {
      // Old writers' BIT_PACKED levels: parquet-hadoop's reader, into an array of runs of one.
      ValuesReader reader =
          page.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
      ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(data, pos, end - pos));
      // BIT_PACKED levels take exactly count * width bits: a count they cannot fill is corrupt,
      // and must not size the array below.
      if (count < 0 || (long) count * levelBitWidth > (long) (end - pos) * 8) {
        throw new IllegalStateException(
            "definition levels of "
                + column
                + ": "
                + count
                + " BIT_PACKED levels of "
                + levelBitWidth
                + " bits do not fit the page's "
                + (end - pos)
                + " bytes");
      }
      int[] read = new int[count];
      try {
        reader.initFromPage(count, in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (int i = 0; i < count; i++) {
        read[i] = reader.readInteger();
      }
      levels = new LevelRuns.OfArray(read);
      pos += (int) (((long) count * levelBitWidth + 7) / 8);
    }
    values = valuesDecoder(page.getValueEncoding(), data, pos, end, count);
    pageLeft = count;
  }

  private void openV2(DataPageV2 page) {
    int count = page.getValueCount();
    if (maxDefinitionLevel == 0) {
      levels = null;
    } else {
      ByteBuffer defs = heapBuffer(page.getDefinitionLevels());
      levelArray = defs.array();
      levels =
          new RleBitPackedDecoder(
              defs.array(),
              defs.arrayOffset() + defs.position(),
              defs.arrayOffset() + defs.limit(),
              levelBitWidth);
    }
    ByteBuffer data = heapBuffer(page.getData());
    pageArray = data.array();
    values =
        valuesDecoder(
            page.getDataEncoding(),
            data.array(),
            data.arrayOffset() + data.position(),
            data.arrayOffset() + data.limit(),
            count);
    pageLeft = count;
  }

  private ValuesDecoder valuesDecoder(Encoding encoding, byte[] data, int pos, int end, int count) {
    switch (encoding) {
      case PLAIN:
        return new PlainValues(data, pos, end, type, fixedLength);
      case PLAIN_DICTIONARY:
      case RLE_DICTIONARY:
        loadDictionary();
        return new DictionaryValues(dictionary, data, pos, end);
      case DELTA_BINARY_PACKED:
        if (type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64) {
          return new DeltaBinaryPackedValues(data, pos, end, count);
        }
        break;
      default:
        break;
    }
    if (encoding.usesDictionary()) {
      loadDictionary();
    }
    return new FallbackValues(
        column,
        encoding,
        parquetDictionary(),
        count,
        ByteBuffer.wrap(data, pos, end - pos).slice());
  }

  private void loadDictionary() {
    if (dictionaryLoaded) {
      return;
    }
    dictionaryLoaded = true;
    DictionaryPage page = pages.readDictionaryPage();
    if (page == null) {
      throw new IllegalStateException(
          "column " + column + " has dictionary-encoded pages but no dictionary page");
    }
    try {
      // The page's bytes may be a one-shot decompressing stream: copy them once, since both our
      // dictionary and (for the fallback) parquet-hadoop's read them.
      dictionaryPage = page.copy();
      ByteBuffer bytes = heapBuffer(dictionaryPage.getBytes());
      dictionary =
          Dictionary.decode(
              bytes.array(),
              bytes.arrayOffset() + bytes.position(),
              bytes.arrayOffset() + bytes.limit(),
              page.getDictionarySize(),
              type,
              fixedLength);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the dictionary of " + column, e);
    }
  }

  private org.apache.parquet.column.Dictionary parquetDictionary() {
    if (parquetDictionary == null && dictionaryPage != null) {
      try {
        parquetDictionary = dictionaryPage.getEncoding().initDictionary(column, dictionaryPage);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the dictionary of " + column, e);
      }
    }
    return parquetDictionary;
  }

  private static ByteBuffer heapBuffer(BytesInput bytes) {
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
