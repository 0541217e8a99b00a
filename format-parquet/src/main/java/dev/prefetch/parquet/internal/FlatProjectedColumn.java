package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapters;
import dev.prefetch.parquet.internal.flat.FlatColumnReader;
import dev.prefetch.parquet.internal.flat.VectorArrayPool;
import dev.prefetch.parquet.internal.page.ByteArrayPool;
import dev.prefetch.parquet.internal.page.ChunkPages;
import org.apache.parquet.column.page.PageReadStore;

/**
 * A column without repetition, of any type: the generic {@link FlatColumnReader} over the column's
 * pages with the adapter of its type, one entry per row.
 */
final class FlatProjectedColumn extends ProjectedColumn {

  private final ColumnNode.Leaf leaf;
  private final ByteArrayPool pages;

  /** The arrays of this column's released vectors, for its next batches. */
  private final VectorArrayPool arrays = new VectorArrayPool();

  private final FlatColumnReader<?> reader;

  FlatProjectedColumn(ColumnNode.Leaf leaf, ByteArrayPool pages) {
    this.leaf = leaf;
    this.pages = pages;
    this.reader =
        FlatColumnReader.of(
            ColumnAdapters.forColumn(leaf.primitiveType(), leaf.type(), arrays),
            leaf.descriptor().getMaxDefinitionLevel(),
            arrays);
  }

  @Override
  String name() {
    return leaf.name();
  }

  @Override
  void bind(PageReadStore rowGroup) {
    reader.bind(
        new ChunkPages(leaf.descriptor(), rowGroup.getPageReader(leaf.descriptor()), pages));
  }

  @Override
  void seek(long row) {
    reader.seek(row);
  }

  @Override
  ColumnVector read(int rows) {
    return reader.read(rows);
  }

  @Override
  void recycle(ColumnVector vector) {
    arrays.recycle(vector);
  }
}
