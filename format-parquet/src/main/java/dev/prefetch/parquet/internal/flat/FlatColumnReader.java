package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.page.LevelRuns;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import dev.prefetch.spi.VectorArrayPool;

/**
 * Reads a flat (non-repeated) column of any type, page by page, into batches: the generic part of
 * every flat column. It does definition levels, nulls, page iteration and row positions; the
 * per-type part is the {@link ColumnAdapter}, called once per run of values.
 *
 * <p>Definition levels are consumed in runs: an RLE run of the maximum level is one bulk decode
 * into the adapter's buffer, an RLE run of a lower level is one block of nulls; bit-packed levels
 * (scattered nulls) are decoded densely in one call and then spread to their rows.
 *
 * <p>Row positions: a flat column has one level per row, so the reader knows the row (within the
 * row group) of its next value. {@link #seek} moves forward to a row, dropping whole pages unread
 * where the pages carry their first row index (a page-filtered read, whose pages may leave gaps
 * between the selected row intervals) and skipping values inside a page. A read that would cross a
 * gap fails rather than return rows of the wrong place.
 *
 * <p>Confined to one thread; bound to one column chunk at a time.
 *
 * @param <B> the adapter's buffer type
 */
public final class FlatColumnReader<B> {

  private final ColumnAdapter<B> adapter;
  private final int maxDefinitionLevel;

  /** Where null masks come from. */
  private final VectorArrayPool arrays;

  private ChunkPages pages;

  /** The page being read, null before the first. */
  private ChunkPages.Page page;

  /** Values left in the current page. */
  private int pageLeft;

  /** The row, within the row group, of the next value. */
  private long nextRow;

  public FlatColumnReader(
      ColumnAdapter<B> adapter, int maxDefinitionLevel, VectorArrayPool arrays) {
    this.adapter = adapter;
    this.maxDefinitionLevel = maxDefinitionLevel;
    this.arrays = arrays;
  }

  /** A reader with the adapter {@link ColumnAdapters} chooses (a factory for a wildcard type). */
  public static FlatColumnReader<?> of(
      ColumnAdapter<?> adapter, int maxDefinitionLevel, VectorArrayPool arrays) {
    return new FlatColumnReader<>(adapter, maxDefinitionLevel, arrays);
  }

  /** Starts on a row group's pages of the column, at its row 0. */
  public void bind(ChunkPages chunk) {
    this.pages = chunk;
    this.page = null;
    this.pageLeft = 0;
    this.nextRow = 0;
  }

  /** Leaves the bound chunk: its current page's arrays go back to their pool. */
  public void release() {
    if (pages != null) {
      pages.release();
      pages = null;
      page = null;
      pageLeft = 0;
    }
  }

  /**
   * Moves to {@code row} (within the row group) without decoding the values of whole pages.
   *
   * @throws IllegalStateException when the row lies behind the reader, or in no page read
   */
  public void seek(long row) {
    if (row < nextRow) {
      throw new IllegalStateException(
          "column " + pages.column() + " cannot go back from row " + nextRow + " to " + row);
    }
    while (nextRow < row) {
      if (pageLeft == 0) {
        openPage();
        if (nextRow > row) {
          throw new IllegalStateException(
              "row " + row + " of column " + pages.column() + " is in no page read");
        }
        continue;
      }
      long gap = row - nextRow;
      if (gap >= pageLeft) {
        nextRow += pageLeft;
        pageLeft = 0; // the rest of the page is dropped unread
      } else {
        skipInPage((int) gap);
      }
    }
  }

  /** Reads the next {@code rows} rows into a vector. */
  public ColumnVector read(int rows) {
    B values = adapter.buffer(rows);
    boolean[] nulls = null;
    int done = 0;
    while (done < rows) {
      if (pageLeft == 0) {
        long expected = nextRow;
        openPage();
        if (nextRow != expected) {
          throw new IllegalStateException(
              "rows "
                  + expected
                  + " to "
                  + (nextRow - 1)
                  + " of column "
                  + pages.column()
                  + " are in no page read");
        }
        continue;
      }
      int n = Math.min(rows - done, pageLeft);
      nulls = readRuns(page.definitionLevels(), page.values(), values, nulls, rows, done, n);
      pageLeft -= n;
      nextRow += n;
      done += n;
    }
    return adapter.vector(values, rows, nulls);
  }

  /**
   * Reads {@code n} rows of the current page at row {@code done} of the batch, level run by run (a
   * page without levels is one run of defined values).
   *
   * <p>Each run's defined values are decoded in one call, densely, and then moved to their rows
   * (bit-packed levels, scattered nulls) rather than a call per stretch. The adapter is called at
   * one site each for decoding, spreading and nulls: the JIT inlines the whole decoder tree at
   * every such site, so one site keeps this method's compiled code, and the time to compile it in
   * the first scans of a JVM, a fraction of what a site per kind of run costs.
   */
  private boolean[] readRuns(
      LevelRuns levels,
      ValuesDecoder decoder,
      B values,
      boolean[] nulls,
      int rows,
      int done,
      int n) {
    int i = 0;
    while (i < n) {
      int run = levels == null ? n : Math.min(levels.nextRun(), n - i);
      int at = done + i;
      int defined = levels == null ? run : levels.countOf(maxDefinitionLevel, run);
      if (defined < run) {
        nulls = nulls == null ? arrays.mask(rows) : nulls;
        levels.markOthers(maxDefinitionLevel, nulls, at, run);
      }
      if (defined > 0) {
        adapter.decode(decoder, values, at, defined);
      }
      if (defined == 0) {
        adapter.nulls(values, at, run);
      } else if (defined < run) {
        adapter.spread(values, at, run, defined, nulls);
      }
      if (levels != null) {
        levels.consume(run);
      }
      i += run;
    }
    return nulls;
  }

  /** Skips {@code n} (fewer than the page's remaining) values of the current page. */
  private void skipInPage(int n) {
    int defined = n;
    LevelRuns levels = page.definitionLevels();
    if (levels != null) {
      defined = 0;
      int i = 0;
      while (i < n) {
        int run = Math.min(levels.nextRun(), n - i);
        defined += levels.countOf(maxDefinitionLevel, run);
        levels.consume(run);
        i += run;
      }
    }
    page.values().skip(defined);
    pageLeft -= n;
    nextRow += n;
  }

  /** Opens the next page; where it carries its first row, the reader's position jumps there. */
  private void openPage() {
    page = pages.next();
    if (page == null) {
      throw new IllegalStateException(
          "column " + pages.column() + " ended before row " + nextRow + " of its row group");
    }
    nextRow = pages.startRow(page, nextRow);
    pageLeft = page.valueCount();
  }
}
