package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.plan.ColumnNode;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.VectorArrayPool;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;

/**
 * One top-level projected column of a range reader: a flat column ({@link FlatProjectedColumn}), or
 * a nested one assembled from its leaves ({@link NestedProjectedColumn}); both decode their pages
 * with the decoders of {@code page} and build vectors through the adapters of {@code flat}.
 *
 * <p>Confined to the range reader's thread, except {@link #recycle}.
 */
abstract class ProjectedColumn {

  /**
   * The reader of {@code node}, whose pages are decompressed into arrays of {@code pages}; with
   * {@code dictionaryVectors}, a flat string or binary column comes as dictionary vectors in the
   * row groups where it is wholly dictionary-encoded; a flat column builds its vectors in arrays of
   * {@code arrays}, the read's pool of the column, where released batches give them back.
   */
  static ProjectedColumn of(
      ColumnNode node, ByteArrayPool pages, boolean dictionaryVectors, VectorArrayPool arrays) {
    return node instanceof ColumnNode.Leaf leaf && leaf.descriptor().getMaxRepetitionLevel() == 0
        ? new FlatProjectedColumn(leaf, pages, dictionaryVectors, arrays)
        : new NestedProjectedColumn(node, pages);
  }

  abstract String name();

  /**
   * Binds to a row group's pages: all of them, or with a page-filtered read the pages that overlap
   * the range's row intervals, which carry their first row index. {@code block} is the row group's
   * metadata.
   */
  abstract void bind(PageReadStore rowGroup, BlockMetaData block);

  /**
   * Moves to {@code row} (within the row group), the first row of the next batch, skipping the rows
   * (and the pages) before it.
   */
  abstract void seek(long row);

  abstract ColumnVector read(int rows);

  /** Leaves the bound row group: the pages still held go back to their pool. */
  abstract void release();

  /** Takes back the arrays of a released vector of this column (thread-safe); may ignore it. */
  void recycle(ColumnVector vector) {}
}
