package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.page.ByteArrayPool;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.page.PageReadStore;

/**
 * One top-level projected column of a range reader: a flat column on the page decoders ({@link
 * FlatProjectedColumn}), or a nested one assembled from its leaves ({@link NestedProjectedColumn}).
 *
 * <p>Confined to the range reader's thread, except {@link #recycle}.
 */
abstract class ProjectedColumn {

  /** The reader of {@code node}; flat pages are decompressed into arrays of {@code pages}. */
  static ProjectedColumn of(ColumnNode node, ByteArrayPool pages) {
    return node instanceof ColumnNode.Leaf leaf && leaf.descriptor().getMaxRepetitionLevel() == 0
        ? new FlatProjectedColumn(leaf, pages)
        : new NestedProjectedColumn(node);
  }

  abstract String name();

  /**
   * Binds to a row group's pages (nested columns: to its column readers).
   *
   * @param filtered whether the pages come from a page-filtered read, which leaves out the pages
   *     outside the range's row intervals
   */
  abstract void bind(ColumnReadStore store, PageReadStore pages, boolean filtered);

  /** Moves to {@code row} (within the row group), the first row of the next batch. */
  abstract void seek(long row);

  abstract ColumnVector read(int rows);

  /** Takes back the arrays of a released vector of this column (thread-safe); may ignore it. */
  void recycle(ColumnVector vector) {}
}
