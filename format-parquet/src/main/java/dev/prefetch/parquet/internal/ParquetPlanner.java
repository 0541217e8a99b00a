package dev.prefetch.parquet.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.RowRange;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.parquet.RowGroupSlice;
import dev.prefetch.parquet.internal.footer.IndexedFooterReader;
import dev.prefetch.parquet.internal.footer.RowGroupSelection;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Plans the read of one Parquet file, on the caller's thread.
 *
 * <p>Steps: the footer (once, through {@link FooterReader}, or through the footer index for chosen
 * row groups, row ranges and splits, whose row groups go by the midpoint rule); the projection;
 * row-group pruning by statistics, dictionaries and bloom filters and page pruning by column
 * indexes (parquet-hadoop's {@link RowGroupFilter} and {@link ColumnIndexFilter}); the selected row
 * ranges; then one range per row group, or several page-aligned slices of a large one.
 *
 * <p>Splitting: a row group whose selected columns hold more than twice {@value #MIN_SLICE_BYTES}
 * compressed bytes is cut into page-aligned slices, at most {@code ceil(bytes / MIN_SLICE_BYTES)}:
 * into {@code SLICES_PER_PRODUCER x parallelism} of them over all selected row groups when fewer
 * row groups are selected than {@code prefetch.parallelism}, and, when prefetching, into enough
 * that no slice is longer than a producer's queue ({@code prefetch.queue-capacity x
 * read.batch-size} rows), since a producer can work only that far ahead of the consumer, which
 * takes ranges in row order. Cuts fall on page starts of the selected column with the most bytes,
 * so that column reads no page twice; other columns read the pages overlapping each slice and skip
 * the rows before it. The slices partition the row group, so every row is read by exactly one
 * slice. Splitting needs an offset index on every selected column; without one, a row group is read
 * whole.
 */
public final class ParquetPlanner {

  /** Smallest compressed size of a slice of a split row group. */
  public static final long MIN_SLICE_BYTES = 1L << 20;

  /** Slices per producer at most, so that producers finishing early find more work. */
  public static final int SLICES_PER_PRODUCER = 4;

  private final DataFile file;
  private final ReadOptions options;
  private final ReadContext context;
  private final ScanCounters counters;

  /** With a partial footer: the file's row group number of each block; null otherwise. */
  private int[] fileRowGroups;

  private ParquetPlanner(
      DataFile file, ReadOptions options, ReadContext context, ScanCounters counters) {
    this.file = file;
    this.options = options;
    this.context = context;
    this.counters = counters;
  }

  /** Plans {@code file}; see the class comment. */
  public static ParquetFilePlan plan(
      DataFile file, ReadOptions options, ReadContext context, ScanCounters counters)
      throws IOException {
    return new ParquetPlanner(file, options, context, counters).plan();
  }

  private ParquetFilePlan plan() throws IOException {
    FilterCompat.Filter filter = toFilter(options.filter());
    // a copy of the context's configuration (thousands of entries) only when the read sets
    // parquet-hadoop properties of its own
    Configuration conf = context.configuration();
    for (Map.Entry<String, String> entry : options.properties().entrySet()) {
      if (entry.getKey().startsWith("parquet.")
          && !entry.getKey().equals(RowGroupSelection.ROW_GROUPS_PROPERTY)) {
        if (conf == context.configuration()) {
          conf = new Configuration(conf);
        }
        conf.set(entry.getKey(), entry.getValue());
      }
    }
    FileSystem fs = file.path().getFileSystem(conf);
    FileStatus status = fs.getFileStatus(file.path());
    if (status.isDirectory()) {
      throw new IOException("Cannot read " + file + ": it is a directory, not a Parquet file");
    }
    long length = status.getLen();
    Cache cache = context.cache();
    FileIdentity identity = cache == null ? null : FileIdentity.of(status);
    // Vectored reads let an object store client fetch a range's column chunks concurrently; on
    // local files Hadoop serves them through an asynchronous channel with a JDK thread pool of
    // its own, and positioned reads are as fast, so local files keep plain reads.
    boolean vectored = !"file".equalsIgnoreCase(status.getPath().toUri().getScheme());
    InputFile input = new CountingInputFile(status, conf, counters, vectored);
    FooterReader footerReader = new FooterReader(file, input, length, counters);
    // Only some row groups wanted: decode just those through the footer index (without a filter,
    // just the projected columns' chunks too; a filter may read statistics of other columns).
    // A split reads the row groups whose midpoint it holds (parquet-hadoop's rule), found from
    // the index, so a split of a wide file decodes only its own row groups.
    RowGroupSelection selection = RowGroupSelection.of(options.properties(), options.rowRanges());
    if (file.isSplit()) {
      selection =
          selection.withSplit(
              new RowGroupSelection.Split(file.start(), file.start() + file.length()));
    }
    boolean partial = selection.selective();
    ParquetMetadata footer;
    if (partial) {
      IndexedFooterReader indexed =
          new IndexedFooterReader(
              file.toString(),
              () -> footerReader.footerBytes(null, null),
              footerReader::parse,
              counters);
      footer =
          indexed.read(
              cache,
              identity,
              selection,
              options.filter() != null ? null : schema -> projectedPaths(schema));
      fileRowGroups = indexed.rowGroups();
    } else {
      footer = footerReader.read(cache, identity);
      counters.add(IndexedFooterReader.ROW_GROUPS_DECODED, footer.getBlocks().size());
    }

    Projection projection =
        Projection.of(
            file,
            footer.getFileMetaData().getSchema(),
            options.columns(),
            ParquetOptions.int96Unit(options));
    OffsetIndexCache offsetIndexCache =
        options.parquetOffsetIndexCache() ? new OffsetIndexCache() : null;
    PageIndexReader indexes = new PageIndexReader(file, length, cache, identity, offsetIndexCache);
    ParquetReadOptions readOptions =
        HadoopReadOptions.builder(conf, file.path())
            .withRecordFilter(FilterCompat.NOOP)
            .usePageChecksumVerification(options.verifyChecksums())
            .build();

    List<BlockMetaData> blocks = footer.getBlocks();
    long[] firstRows = new long[blocks.size()];
    List<BlockMetaData> candidates = new ArrayList<>();
    Map<BlockMetaData, Integer> ordinals = new IdentityHashMap<>();
    long rowsBefore = 0;
    for (int i = 0; i < blocks.size(); i++) {
      BlockMetaData block = blocks.get(i);
      if (block.getRowCount() < 0) {
        throw new CorruptFileException(
            "Corrupt Parquet footer in "
                + file
                + ": row group "
                + fileRowGroup(i)
                + " has "
                + block.getRowCount()
                + " rows");
      }
      firstRows[i] = partial ? block.getRowIndexOffset() : rowsBefore;
      rowsBefore += block.getRowCount();
      ordinals.put(block, i);
      if (block.getRowCount() == 0 || block.getColumns().isEmpty()) {
        continue;
      }
      if (options.rowRanges() != null
          && !overlapsAny(options.rowRanges(), firstRows[i], block.getRowCount())) {
        continue;
      }
      candidates.add(block);
    }

    boolean filtering = FilterCompat.isFilteringRequired(filter);
    boolean mayNeedIndexes =
        filtering
            || options.rowRanges() != null
            || (options.parquetSplitRowGroups()
                && (candidates.size() < options.parallelism()
                    || anyLongerThanLookAhead(candidates)));
    List<ReadRange> ranges = new ArrayList<>();
    List<SliceSpec> specs = new ArrayList<>();
    if (!mayNeedIndexes || candidates.isEmpty()) {
      for (BlockMetaData block : candidates) {
        int ordinal = ordinals.get(block);
        checkChunks(block, ordinal, projection, length);
        addRange(
            ranges,
            specs,
            block,
            ordinal,
            firstRows[ordinal],
            new long[] {0, block.getRowCount()},
            projection,
            true);
      }
    } else {
      // parquet-hadoop's reader (whose set-up walks every column of the schema) only when a
      // filter needs it; row ranges and slices need no more than the offset indexes
      SeekableInputStream stream = input.newStream();
      try (IndexedFileReader planning =
              filtering
                  ? new IndexedFileReader(input, footer, readOptions, stream, indexes)
                  : null;
          SeekableInputStream owned = filtering ? null : stream) {
        List<BlockMetaData> kept = candidates;
        Set<ColumnPath> allPaths = new HashSet<>();
        if (filtering) {
          kept = pruneRowGroups(filter, candidates, planning, readOptions);
          for (ColumnDescriptor column : footer.getFileMetaData().getSchema().getColumns()) {
            allPaths.add(ColumnPath.get(column.getPath()));
          }
        }
        for (BlockMetaData block : kept) {
          int ordinal = ordinals.get(block);
          checkChunks(block, ordinal, projection, length);
          long[] pageRanges = null;
          if (filtering && readOptions.useColumnIndexFilter()) {
            pageRanges = pagePruning(filter, block, indexes, stream, allPaths);
          }
          planRowGroup(
              ranges,
              specs,
              block,
              ordinal,
              firstRows[ordinal],
              kept.size(),
              projection,
              pageRanges,
              indexes,
              stream);
        }
      }
    }
    return new ParquetFilePlan(
        file,
        input,
        footer,
        readOptions,
        conf,
        projection,
        indexes,
        ranges,
        specs,
        options,
        counters);
  }

  private List<ColumnPath> projectedPaths(org.apache.parquet.schema.MessageType schema) {
    List<ColumnPath> paths = new ArrayList<>();
    for (ColumnDescriptor leaf : Projection.of(file, schema, options.columns()).leaves()) {
      paths.add(ColumnPath.get(leaf.getPath()));
    }
    return paths;
  }

  private FilterCompat.Filter toFilter(Object filter) {
    if (filter == null) {
      return FilterCompat.NOOP;
    }
    if (filter instanceof FilterPredicate predicate) {
      return FilterCompat.get(predicate);
    }
    if (filter instanceof FilterCompat.Filter compat) {
      return compat;
    }
    throw new IllegalArgumentException(
        "The filter of a read of Parquet file "
            + file
            + " must be an org.apache.parquet FilterPredicate or FilterCompat.Filter, not "
            + filter.getClass().getName());
  }

  private List<BlockMetaData> pruneRowGroups(
      FilterCompat.Filter filter,
      List<BlockMetaData> candidates,
      IndexedFileReader planning,
      ParquetReadOptions readOptions)
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

  /** The rows the column indexes keep, as {@code [from, to)} pairs. */
  private long[] pagePruning(
      FilterCompat.Filter filter,
      BlockMetaData block,
      PageIndexReader indexes,
      SeekableInputStream stream,
      Set<ColumnPath> allPaths)
      throws IOException {
    try {
      return RowRangesCompat.columnIndexRows(
          filter, new LazyColumnIndexStore(block, indexes, stream), allPaths, block.getRowCount());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Cuts one selected row group into ranges: row-range segments, slices, page pruning. */
  private void planRowGroup(
      List<ReadRange> ranges,
      List<SliceSpec> specs,
      BlockMetaData block,
      int ordinal,
      long firstRow,
      int selectedRowGroups,
      Projection projection,
      long[] pageRanges,
      PageIndexReader indexes,
      SeekableInputStream stream)
      throws IOException {
    long rows = block.getRowCount();
    List<long[]> segments = new ArrayList<>();
    if (options.rowRanges() == null) {
      segments.add(new long[] {0, rows});
    } else {
      for (RowRange range : options.rowRanges()) {
        long from = Math.max(range.start(), firstRow) - firstRow;
        long to = Math.min(range.end(), firstRow + rows) - firstRow;
        if (from < to) {
          segments.add(new long[] {from, to});
        }
      }
    }
    List<ColumnChunkMetaData> chunks = projectedChunks(block, projection);
    boolean offsetIndexes = true;
    long bytes = 0;
    ColumnChunkMetaData anchor = null;
    for (ColumnChunkMetaData chunk : chunks) {
      offsetIndexes &= chunk.getOffsetIndexReference() != null;
      bytes += chunk.getTotalSize();
      if (anchor == null || chunk.getTotalSize() > anchor.getTotalSize()) {
        anchor = chunk;
      }
    }
    long[] cuts = new long[0];
    if (options.parquetSplitRowGroups()
        && bytes > 2 * MIN_SLICE_BYTES
        && offsetIndexes
        && anchor != null) {
      long pieces = 1;
      if (selectedRowGroups < options.parallelism()) {
        // the file's share of the slices every producer should get, not that many per row group
        long wanted = (long) SLICES_PER_PRODUCER * options.parallelism();
        pieces = (wanted + selectedRowGroups - 1) / selectedRowGroups;
      }
      long lookAhead = lookAheadRows();
      if (lookAhead > 0) {
        pieces = Math.max(pieces, (rows + lookAhead - 1) / lookAhead);
      }
      pieces = Math.min(pieces, (bytes + MIN_SLICE_BYTES - 1) / MIN_SLICE_BYTES);
      if (pieces > 1) {
        cuts = pageCuts(indexes.readOffsetIndex(anchor, stream), rows, (int) pieces);
      }
    }
    for (long[] segment : segments) {
      long from = segment[0];
      for (int c = 0; c <= cuts.length; c++) {
        long to = c < cuts.length ? cuts[c] : segment[1];
        if (to <= from) {
          continue;
        }
        to = Math.min(to, segment[1]);
        long[] bounds = intersect(from, to, pageRanges);
        if (bounds.length > 0) {
          addRange(ranges, specs, block, ordinal, firstRow, bounds, projection, offsetIndexes);
        }
        from = to;
        if (from >= segment[1]) {
          break;
        }
      }
    }
  }

  /**
   * Rows a producer can decode ahead of the consumer: its queue's worth. The consumer takes ranges
   * in row order, so a producer holding a later range stalls once its queue is full; a range longer
   * than this leaves the other producers idle for the rest of it. Zero when the read has no
   * producers to keep busy.
   */
  private long lookAheadRows() {
    if (!options.prefetchEnabled() || options.parallelism() < 2) {
      return 0;
    }
    return (long) options.queueCapacity() * options.batchSize();
  }

  private boolean anyLongerThanLookAhead(List<BlockMetaData> blocks) {
    long lookAhead = lookAheadRows();
    if (lookAhead == 0) {
      return false;
    }
    for (BlockMetaData block : blocks) {
      if (block.getRowCount() > lookAhead) {
        return true;
      }
    }
    return false;
  }

  /** Row indexes (inside the row group) where slices start, at page starts of {@code index}. */
  private static long[] pageCuts(OffsetIndex index, long rows, int pieces) {
    if (index == null || pieces < 2 || index.getPageCount() < 2) {
      return new long[0];
    }
    long total = 0;
    for (int p = 0; p < index.getPageCount(); p++) {
      total += index.getCompressedPageSize(p);
    }
    List<Long> cuts = new ArrayList<>();
    long accumulated = 0;
    for (int p = 1; p < index.getPageCount(); p++) {
      accumulated += index.getCompressedPageSize(p - 1);
      long pageStart = index.getFirstRowIndex(p);
      if (accumulated * pieces >= total * (cuts.size() + 1)
          && pageStart > 0
          && pageStart < rows
          && (cuts.isEmpty() || pageStart > cuts.get(cuts.size() - 1))) {
        cuts.add(pageStart);
      }
    }
    long[] out = new long[cuts.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = cuts.get(i);
    }
    return out;
  }

  /**
   * {@code [from, to)} intersected with {@code pageRanges} ({@code [from, to)} pairs; null: all
   * rows) as bounds.
   */
  private static long[] intersect(long from, long to, long[] pageRanges) {
    if (pageRanges == null) {
      return new long[] {from, to};
    }
    List<Long> bounds = new ArrayList<>();
    for (int i = 0; i < pageRanges.length; i += 2) {
      long start = Math.max(from, pageRanges[i]);
      long end = Math.min(to, pageRanges[i + 1]);
      if (start < end) {
        bounds.add(start);
        bounds.add(end);
      }
    }
    long[] out = new long[bounds.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bounds.get(i);
    }
    return out;
  }

  private void addRange(
      List<ReadRange> ranges,
      List<SliceSpec> specs,
      BlockMetaData block,
      int ordinal,
      long firstRow,
      long[] bounds,
      Projection projection,
      boolean pageFiltered) {
    long rows = block.getRowCount();
    SliceSpec spec = new SliceSpec(ordinal, firstRow, rows, bounds, pageFiltered);
    long start = bounds[0];
    long end = bounds[bounds.length - 1];
    long bytes = 0;
    for (ColumnChunkMetaData chunk : projectedChunks(block, projection)) {
      bytes += chunk.getTotalSize();
    }
    long estimate = spec.whole() ? bytes : (long) ((double) bytes * (end - start) / rows);
    RowGroupSlice locator = new RowGroupSlice(fileRowGroup(ordinal), start, end, spec.whole());
    ranges.add(new ReadRange(ranges.size(), firstRow + start, end - start, estimate, locator));
    specs.add(spec);
  }

  /** The file's row group number of block {@code ordinal} of the (maybe partial) footer. */
  private int fileRowGroup(int ordinal) {
    return fileRowGroups == null ? ordinal : fileRowGroups[ordinal];
  }

  private static List<ColumnChunkMetaData> projectedChunks(
      BlockMetaData block, Projection projection) {
    Set<ColumnPath> wanted = new HashSet<>();
    for (ColumnDescriptor leaf : projection.leaves()) {
      wanted.add(ColumnPath.get(leaf.getPath()));
    }
    List<ColumnChunkMetaData> chunks = new ArrayList<>();
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      if (wanted.contains(chunk.getPath())) {
        chunks.add(chunk);
      }
    }
    return chunks;
  }

  /** Every selected chunk must lie inside the file before a reader allocates its bytes. */
  private void checkChunks(BlockMetaData block, int ordinal, Projection projection, long length)
      throws CorruptFileException {
    for (ColumnChunkMetaData chunk : projectedChunks(block, projection)) {
      long start = chunk.getStartingPos();
      long size = chunk.getTotalSize();
      if (start < 0 || size < 0 || start > length || size > length - start) {
        throw new CorruptFileException(
            "Corrupt Parquet footer in "
                + file
                + ": column "
                + chunk.getPath().toDotString()
                + " of row group "
                + fileRowGroup(ordinal)
                + " lies at ["
                + start
                + ", +"
                + size
                + "), outside the file of "
                + length
                + " bytes");
      }
    }
  }

  private static boolean overlapsAny(List<RowRange> ranges, long first, long count) {
    for (RowRange range : ranges) {
      if (range.overlaps(first, first + count)) {
        return true;
      }
    }
    return false;
  }
}
