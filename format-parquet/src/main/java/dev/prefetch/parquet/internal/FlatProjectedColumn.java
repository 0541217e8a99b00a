package dev.prefetch.parquet.internal;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapters;
import dev.prefetch.parquet.internal.flat.FlatColumnReader;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.plan.ColumnNode;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.VectorArrayPool;
import java.util.List;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * A column without repetition, of any type: the generic {@link FlatColumnReader} over the column's
 * pages with the adapter of its type, one entry per row. A string or binary column read as
 * dictionary vectors has a second reader, over dictionary ids, for the row groups whose chunk of
 * the column is wholly dictionary-encoded ({@link DictionaryChunks}).
 */
final class FlatProjectedColumn extends ProjectedColumn {

  private final ColumnNode.Leaf leaf;
  private final ByteArrayPool pages;
  private final ColumnPath path;

  /**
   * The arrays of this column's released vectors, for its next batches: the read's pool of the
   * column, which later range readers (of this file or the next) take from as well.
   */
  private final VectorArrayPool arrays;

  private final FlatColumnReader<?> plain;

  /** Null unless the column is read as dictionary vectors where its chunk allows. */
  private final FlatColumnReader<?> ids;

  /** The reader of the bound row group: {@link #plain} or {@link #ids}. */
  private FlatColumnReader<?> reader;

  /** Where this column's chunk was in the last row group's column list (usually where it stays). */
  private int chunkIndex;

  FlatProjectedColumn(
      ColumnNode.Leaf leaf,
      ByteArrayPool pages,
      boolean dictionaryVectors,
      VectorArrayPool arrays) {
    this.leaf = leaf;
    this.arrays = arrays;
    this.pages = pages;
    this.path = ColumnPath.get(leaf.descriptor().getPath());
    int maxDefinitionLevel = leaf.descriptor().getMaxDefinitionLevel();
    this.plain =
        FlatColumnReader.of(
            ColumnAdapters.forColumn(leaf.primitiveType(), leaf.type(), arrays),
            maxDefinitionLevel,
            arrays);
    this.ids =
        dictionaryVectors && ColumnAdapters.readsDictionaryIds(leaf.primitiveType(), leaf.type())
            ? FlatColumnReader.of(
                ColumnAdapters.dictionaryIds(leaf.type(), arrays), maxDefinitionLevel, arrays)
            : null;
    this.reader = plain;
  }

  @Override
  String name() {
    return leaf.name();
  }

  @Override
  void bind(PageReadStore rowGroup, BlockMetaData block) {
    reader = ids != null && DictionaryChunks.wholly(chunk(block)) ? ids : plain;
    reader.bind(
        new ChunkPages(leaf.descriptor(), rowGroup.getPageReader(leaf.descriptor()), pages));
  }

  /** This column's chunk in {@code block}, or null when the block does not list it. */
  private ColumnChunkMetaData chunk(BlockMetaData block) {
    List<ColumnChunkMetaData> chunks = block.getColumns();
    if (chunkIndex < chunks.size() && chunks.get(chunkIndex).getPath().equals(path)) {
      return chunks.get(chunkIndex);
    }
    for (int i = 0; i < chunks.size(); i++) {
      if (chunks.get(i).getPath().equals(path)) {
        chunkIndex = i;
        return chunks.get(i);
      }
    }
    return null;
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
  void release() {
    reader.release();
  }

  @Override
  void recycle(ColumnVector vector) {
    arrays.recycle(vector);
  }
}
