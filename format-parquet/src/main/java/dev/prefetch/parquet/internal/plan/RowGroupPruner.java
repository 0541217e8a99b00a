package dev.prefetch.parquet.internal.plan;

import dev.prefetch.DataFile;
import dev.prefetch.parquet.internal.compat.RowRangesCompat;
import dev.prefetch.parquet.internal.index.IndexedFileReader;
import dev.prefetch.parquet.internal.index.LazyColumnIndexStore;
import dev.prefetch.parquet.internal.index.PageIndexReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/**
 * What a read's predicate keeps of a Parquet file, at plan time: row groups by statistics,
 * dictionaries and bloom filters (parquet-hadoop's {@link RowGroupFilter}, at the levels the read
 * options enable), and rows by column indexes (parquet-hadoop's {@link ColumnIndexFilter}). Used on
 * the planning thread only.
 */
public final class RowGroupPruner {

  private final DataFile file;
  private final FilterCompat.Filter filter;

  /** Every column path of the file's schema, made on the first page pruning. */
  private Set<ColumnPath> allPaths;

  private RowGroupPruner(DataFile file, FilterCompat.Filter filter) {
    this.file = file;
    this.filter = filter;
  }

  /**
   * The pruner of a read whose native predicate is {@code filter} (null: none).
   *
   * @throws IllegalArgumentException for a predicate of another library, naming the file
   */
  public static RowGroupPruner of(DataFile file, Object filter) {
    if (filter == null) {
      return new RowGroupPruner(file, FilterCompat.NOOP);
    }
    if (filter instanceof FilterPredicate predicate) {
      return new RowGroupPruner(file, FilterCompat.get(predicate));
    }
    if (filter instanceof FilterCompat.Filter compat) {
      return new RowGroupPruner(file, compat);
    }
    throw new IllegalArgumentException(
        "The filter of a read of Parquet file "
            + file
            + " must be an org.apache.parquet FilterPredicate or FilterCompat.Filter, not "
            + filter.getClass().getName());
  }

  /** Whether there is a predicate to apply. */
  public boolean filtering() {
    return FilterCompat.isFilteringRequired(filter);
  }

  /** The candidates the predicate may match, in order. */
  public List<BlockMetaData> rowGroups(
      List<BlockMetaData> candidates, IndexedFileReader planning, ParquetReadOptions readOptions)
      throws IOException {
    List<RowGroupFilter.FilterLevel> levels = new ArrayList<>();
    if (readOptions.useStatsFilter()) {
      levels.add(RowGroupFilter.FilterLevel.STATISTICS);
    }
    if (readOptions.useDictionaryFilter()) {
      levels.add(RowGroupFilter.FilterLevel.DICTIONARY);
    }
    if (readOptions.useBloomFilter()) {
      levels.add(RowGroupFilter.FilterLevel.BLOOMFILTER);
    }
    try {
      return RowGroupFilter.filterRowGroups(levels, filter, candidates, planning);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "The filter " + filter + " does not apply to " + file + ": " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * The rows of {@code block} the column indexes keep, as {@code [from, to)} pairs counted from the
   * row group's first row.
   */
  public long[] pageRows(
      BlockMetaData block, MessageType schema, PageIndexReader indexes, SeekableInputStream stream)
      throws IOException {
    if (allPaths == null) {
      allPaths = new HashSet<>();
      for (ColumnDescriptor column : schema.getColumns()) {
        allPaths.add(ColumnPath.get(column.getPath()));
      }
    }
    try {
      return RowRangesCompat.columnIndexRows(
          filter, new LazyColumnIndexStore(block, indexes, stream), allPaths, block.getRowCount());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
