package dev.prefetch.parquet.internal.nested;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapter;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.page.LevelRuns;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;

/**
 * A primitive leaf of a nested column: a cursor on the leaf's entries (one repetition and one
 * definition level each) over its pages, and the leaf's slots (a value, or a null in the mask).
 *
 * <p>Values are decoded in runs, not one by one: a slot that gets a value only counts it as
 * pending, and the pending values are decoded densely into the adapter's buffer in one call when
 * the page ends, when a value must be skipped, or when the batch is finished; {@link #finish} then
 * spreads the dense values to their slots around the nulls, as a flat column does.
 *
 * <p>Row positions: an entry of repetition level 0 starts a row. The cursor counts rows from the
 * row group's first, and where a page carries its first row index (a page-filtered read, whose
 * pages start at row boundaries) it takes the count from there; {@link #seekRow} skips the entries
 * of the rows before the one wanted, and a read that meets a page after a gap fails.
 */
public final class LeafAssembler<B> extends Assembler {

  private static final int INITIAL_CAPACITY = 16;

  private final ColumnDescriptor descriptor;
  private final ColumnAdapter<B> adapter;
  private final int maxDef;

  private ChunkPages pages;

  /** The page being read, null before the first. */
  private ChunkPages.Page page;

  /** Entries left in the current page. */
  private int pageLeft;

  /** Whether the levels of the current entry are loaded (into the two fields below). */
  private boolean loaded;

  /** The chunk has no more entries (its levels read as 0, which ends every list). */
  private boolean ended;

  private int repetitionLevel;
  private int definitionLevel;

  /** The row that the next entry of repetition level 0 starts. */
  private long nextRow;

  /**
   * The row expected where a page began after a gap (its pages left out by a filtered read), or -1:
   * reading on from there would return rows of another place; only a seek may cross it.
   */
  private long gapFrom = -1;

  /** The buffer of the slots of the batch being read, and its capacity. */
  private B buffer;

  private int capacity;

  /** Values decoded into the buffer (densely), and values counted but not yet decoded. */
  private int dense;

  private int pendingTake;

  /** Values of the current page to drop before the next are decoded. */
  private int pendingSkip;

  LeafAssembler(int nullDef, ColumnDescriptor descriptor, ColumnAdapter<B> adapter) {
    super(nullDef);
    this.descriptor = descriptor;
    this.adapter = adapter;
    this.maxDef = descriptor.getMaxDefinitionLevel();
  }

  public ColumnDescriptor descriptor() {
    return descriptor;
  }

  /** Leaves the bound chunk: its current page's arrays go back to their pool. */
  public void release() {
    if (pages != null) {
      pages.release();
      pages = null;
      page = null;
    }
  }

  /** Starts on a row group's pages of the leaf, at its row 0. */
  public void bind(ChunkPages chunk) {
    this.pages = chunk;
    this.page = null;
    this.pageLeft = 0;
    this.loaded = false;
    this.ended = false;
    this.nextRow = 0;
    this.gapFrom = -1;
    this.pendingTake = 0;
    this.pendingSkip = 0;
  }

  @Override
  public void collectLeaves(List<LeafAssembler<?>> out) {
    out.add(this);
  }

  @Override
  LeafAssembler<?> first() {
    return this;
  }

  /** The definition level of the current entry. */
  int definitionLevel() {
    load();
    return definitionLevel;
  }

  /** The repetition level of the current entry; 0 past the chunk's last entry. */
  int repetitionLevel() {
    load();
    return repetitionLevel;
  }

  /**
   * Moves to the first entry of {@code row} (within the row group), skipping the entries and values
   * of the rows before it.
   *
   * @throws IllegalStateException when the row lies behind the cursor, or in no page read
   */
  public void seekRow(long row) {
    while (true) {
      load();
      gapFrom = -1;
      if (ended || repetitionLevel == 0) {
        // the current entry starts row nextRow (or the chunk ended there)
        if (nextRow == row) {
          return;
        }
        if (nextRow > row || ended) {
          throw new IllegalStateException(
              "row " + row + " of column " + descriptor + " is in no page read");
        }
      }
      if (definitionLevel == maxDef) {
        skipValue();
      }
      advance();
    }
  }

  @Override
  public void readSlot() {
    load();
    checkNoGap();
    if (definitionLevel < maxDef) {
      appendNull();
    } else {
      ensureRoom();
      if (pendingSkip > 0) {
        flushSkip();
      }
      pendingTake++;
      size++;
    }
    advance();
  }

  @Override
  void appendNull() {
    ensureRoom();
    markNull();
    size++;
  }

  @Override
  void skipEntries() {
    load();
    checkNoGap();
    if (definitionLevel == maxDef) {
      skipValue();
    }
    advance();
  }

  @Override
  public ColumnVector finish() {
    flushTake();
    ensureRoom(); // an empty batch still needs a buffer
    int n = size;
    boolean[] nullMask = takeNulls(n);
    if (dense < n) {
      adapter.spread(buffer, 0, n, dense, nullMask);
    }
    B out = buffer;
    buffer = null;
    size = 0;
    dense = 0;
    return adapter.vector(out, n, nullMask);
  }

  private void ensureRoom() {
    if (buffer == null) {
      buffer = adapter.buffer(INITIAL_CAPACITY);
      capacity = INITIAL_CAPACITY;
    } else if (size == capacity) {
      capacity = Growth.grow(capacity, size + 1);
      buffer = adapter.grow(buffer, capacity);
    }
  }

  private void checkNoGap() {
    if (gapFrom >= 0) {
      throw new IllegalStateException(
          "rows "
              + gapFrom
              + " to "
              + (nextRow - 1)
              + " of column "
              + descriptor
              + " are in no page read");
    }
  }

  private void skipValue() {
    flushTake();
    pendingSkip++;
  }

  private void flushTake() {
    if (pendingTake > 0) {
      adapter.decode(page.values(), buffer, dense, pendingTake);
      dense += pendingTake;
      pendingTake = 0;
    }
  }

  private void flushSkip() {
    if (pendingSkip > 0) {
      page.values().skip(pendingSkip);
      pendingSkip = 0;
    }
  }

  /** Loads the levels of the current entry, opening the next page where the current one ended. */
  private void load() {
    if (loaded) {
      return;
    }
    while (pageLeft == 0) {
      flushTake(); // the pending values belong to the page that ends
      pendingSkip = 0;
      page = pages.next();
      if (page == null) {
        ended = true;
        loaded = true;
        repetitionLevel = 0;
        definitionLevel = 0;
        return;
      }
      long start = pages.startRow(page, nextRow);
      if (start > nextRow) {
        gapFrom = nextRow;
      }
      nextRow = start;
      pageLeft = page.valueCount();
    }
    LevelRuns reps = page.repetitionLevels();
    LevelRuns defs = page.definitionLevels();
    repetitionLevel = reps == null ? 0 : peek(reps);
    definitionLevel = defs == null ? maxDef : peek(defs);
    loaded = true;
  }

  private static int peek(LevelRuns levels) {
    levels.nextRun();
    return levels.isRle() ? levels.rleValue() : levels.packedValue(0);
  }

  /** Moves past the current entry (whose value, if any, has been counted). */
  private void advance() {
    if (ended) {
      throw new IllegalStateException(
          "column " + descriptor + " ended before row " + nextRow + " of its row group");
    }
    LevelRuns reps = page.repetitionLevels();
    LevelRuns defs = page.definitionLevels();
    if (reps != null) {
      reps.consume(1);
    }
    if (defs != null) {
      defs.consume(1);
    }
    if (repetitionLevel == 0) {
      nextRow++;
    }
    pageLeft--;
    loaded = false;
  }
}
