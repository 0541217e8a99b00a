package dev.prefetch.parquet.internal.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The page indexes of one row group, read only for the columns a filter asks about (where
 * parquet-hadoop's own store reads every column's offset index up front). Used while planning, on
 * the planning thread.
 */
public final class LazyColumnIndexStore implements ColumnIndexStore {

  private final BlockMetaData block;
  private final PageIndexReader indexes;
  private final SeekableInputStream stream;

  public LazyColumnIndexStore(
      BlockMetaData block, PageIndexReader indexes, SeekableInputStream stream) {
    this.block = block;
    this.indexes = indexes;
    this.stream = stream;
  }

  private ColumnChunkMetaData chunk(ColumnPath path) {
    for (ColumnChunkMetaData column : block.getColumns()) {
      if (column.getPath().equals(path)) {
        return column;
      }
    }
    return null;
  }

  @Override
  public ColumnIndex getColumnIndex(ColumnPath path) {
    ColumnChunkMetaData column = chunk(path);
    if (column == null) {
      return null;
    }
    try {
      return indexes.readColumnIndex(column, stream);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public OffsetIndex getOffsetIndex(ColumnPath path) {
    ColumnChunkMetaData column = chunk(path);
    OffsetIndex index = null;
    if (column != null) {
      try {
        index = indexes.readOffsetIndex(column, stream);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (index == null) {
      throw new MissingOffsetIndexException(path);
    }
    return index;
  }
}
