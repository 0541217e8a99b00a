package dev.prefetch.parquet.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.RowRange;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.parquet.RowGroupSlice;
import dev.prefetch.parquet.internal.footer.FileChangedWhileReading;
import dev.prefetch.parquet.internal.footer.FileVersionCheck;
import dev.prefetch.parquet.internal.footer.FooterLoader;
import dev.prefetch.parquet.internal.footer.RowGroupSelection;
import dev.prefetch.parquet.internal.index.IndexedFileReader;
import dev.prefetch.parquet.internal.index.OffsetIndexCache;
import dev.prefetch.parquet.internal.index.PageIndexReader;
import dev.prefetch.parquet.internal.plan.PlanInput;
import dev.prefetch.parquet.internal.plan.Projection;
import dev.prefetch.parquet.internal.plan.RowGroupPruner;
import dev.prefetch.parquet.internal.plan.RowGroupSlicer;
import dev.prefetch.parquet.internal.plan.SliceSpec;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Plans the read of one Parquet file, on the caller's thread.
 *
 * <p>Steps: the file's status and counted input ({@link PlanInput}); the footer ({@link
 * FooterLoader}: whole, or only the row groups a selection or split wants); the projection; the
 * candidate row groups (those overlapping the selected rows); pruning by the predicate ({@link
 * RowGroupPruner}); then each kept row group cut into ranges by {@link RowGroupSlicer} (row-range
 * segments, page-aligned slices, rows kept by column indexes). Slicing needs an offset index on
 * every selected column and {@code parquet.read.split-row-groups}; without them, a row group is
 * read whole (less any row selection).
 */
public final class ParquetPlanner {

  /** Attempts at reading a footer whose file does not change while it is read. */
  static final int MAX_FOOTER_ATTEMPTS = 3;

  private final DataFile file;
  private final ReadOptions options;
  private final ParquetOptions parquetOptions;
  private final RangeBudget budget;
  private final ReadContext context;
  private final ScanCounters counters;

  ParquetPlanner(
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters) {
    this.file = file;
    this.options = options;
    this.parquetOptions = ParquetOptions.from(options);
    this.budget = budget;
    this.context = context;
    this.counters = counters;
  }

  /** Plans the file; see the class comment. */
  ParquetFilePlan plan() throws IOException {
    RowGroupPruner pruner = RowGroupPruner.of(file, options.filter());
    RowGroupSelection selection = RowGroupSelection.of(options.properties(), options.rowRanges());
    if (file.isSplit()) {
      selection =
          selection.withSplit(
              new RowGroupSelection.Split(file.start(), file.start() + file.length()));
    }
    Cache cache = context.cache();
    PlanInput opened;
    FooterLoader.LoadedFooter loaded;
    for (int attempt = 1; ; attempt++) {
      opened = PlanInput.open(file, options, parquetOptions, context, counters);
      try {
        loaded = loadFooter(opened, cache, selection);
        break;
      } catch (FileChangedWhileReading e) {
        if (attempt == MAX_FOOTER_ATTEMPTS) {
          throw new ReadException(
              file, "the file changed while its footer was read, " + attempt + " times", e);
        }
      }
    }
    Configuration conf = opened.conf();
    long length = opened.length();
    FileIdentity identity = opened.identity();
    InputFile input = opened.input();
    ParquetMetadata footer = loaded.footer();

    Projection projection =
        Projection.of(
            file,
            footer.getFileMetaData().getSchema(),
            options.columns(),
            parquetOptions.int96Unit());
    OffsetIndexCache offsetIndexCache =
        parquetOptions.offsetIndexCache() ? new OffsetIndexCache() : null;
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
                + loaded.fileRowGroup(i)
                + " has "
                + block.getRowCount()
                + " rows");
      }
      firstRows[i] = loaded.partial() ? block.getRowIndexOffset() : rowsBefore;
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

    boolean filtering = pruner.filtering();
    boolean mayNeedIndexes =
        filtering
            || options.rowRanges() != null
            || (parquetOptions.splitRowGroups()
                && RowGroupSlicer.maySlice(rowCounts(candidates), budget));
    Ranges ranges = new Ranges(loaded, projection);
    if (!mayNeedIndexes || candidates.isEmpty()) {
      for (BlockMetaData block : candidates) {
        int ordinal = ordinals.get(block);
        checkChunks(block, loaded.fileRowGroup(ordinal), projection, length);
        ranges.add(block, ordinal, firstRows[ordinal], new long[] {0, block.getRowCount()}, true);
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
        List<BlockMetaData> kept =
            filtering ? pruner.rowGroups(candidates, planning, readOptions) : candidates;
        for (BlockMetaData block : kept) {
          int ordinal = ordinals.get(block);
          checkChunks(block, loaded.fileRowGroup(ordinal), projection, length);
          long[] pageRows = null;
          if (filtering && readOptions.useColumnIndexFilter()) {
            pageRows =
                pruner.pageRows(block, footer.getFileMetaData().getSchema(), indexes, stream);
          }
          planRowGroup(
              ranges, block, ordinal, firstRows[ordinal], kept.size(), pageRows, indexes, stream);
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
        ranges.ranges,
        ranges.specs,
        options,
        parquetOptions.dictionaryVectors(),
        counters);
  }

  private List<ColumnPath> projectedPaths(org.apache.parquet.schema.MessageType schema) {
    List<ColumnPath> paths = new ArrayList<>();
    for (ColumnDescriptor leaf : Projection.of(file, schema, options.columns()).leaves()) {
      paths.add(ColumnPath.get(leaf.getPath()));
    }
    return paths;
  }

  /** Cuts one selected row group into ranges: row-range segments, slices, page pruning. */
  private void planRowGroup(
      Ranges ranges,
      BlockMetaData block,
      int ordinal,
      long firstRow,
      int selectedRowGroups,
      long[] pageRows,
      PageIndexReader indexes,
      SeekableInputStream stream)
      throws IOException {
    long rows = block.getRowCount();
    List<long[]> segments = RowGroupSlicer.segments(options.rowRanges(), firstRow, rows);
    boolean offsetIndexes = true;
    long bytes = 0;
    ColumnChunkMetaData anchor = null;
    for (ColumnChunkMetaData chunk : projectedChunks(block, ranges.projection)) {
      offsetIndexes &= chunk.getOffsetIndexReference() != null;
      bytes += chunk.getTotalSize();
      if (anchor == null || chunk.getTotalSize() > anchor.getTotalSize()) {
        anchor = chunk;
      }
    }
    long[] cuts = new long[0];
    if (parquetOptions.splitRowGroups() && offsetIndexes && anchor != null) {
      int pieces = RowGroupSlicer.pieces(rows, bytes, selectedRowGroups, budget);
      if (pieces > 1) {
        cuts = RowGroupSlicer.pageCuts(indexes.readOffsetIndex(anchor, stream), rows, pieces);
      }
    }
    for (long[] bounds : RowGroupSlicer.ranges(segments, cuts, pageRows)) {
      ranges.add(block, ordinal, firstRow, bounds, offsetIndexes);
    }
  }

  /** The ranges of the plan and, at the same indexes, how to read each. */
  private static final class Ranges {
    final FooterLoader.LoadedFooter footer;
    final Projection projection;
    final List<ReadRange> ranges = new ArrayList<>();
    final List<SliceSpec> specs = new ArrayList<>();

    Ranges(FooterLoader.LoadedFooter footer, Projection projection) {
      this.footer = footer;
      this.projection = projection;
    }

    void add(BlockMetaData block, int ordinal, long firstRow, long[] bounds, boolean pageFiltered) {
      long rows = block.getRowCount();
      SliceSpec spec = new SliceSpec(ordinal, firstRow, rows, bounds, pageFiltered);
      long start = bounds[0];
      long end = bounds[bounds.length - 1];
      long bytes = 0;
      for (ColumnChunkMetaData chunk : projectedChunks(block, projection)) {
        bytes += chunk.getTotalSize();
      }
      long estimate = spec.whole() ? bytes : (long) ((double) bytes * (end - start) / rows);
      RowGroupSlice locator =
          new RowGroupSlice(footer.fileRowGroup(ordinal), start, end, spec.whole());
      ranges.add(new ReadRange(ranges.size(), firstRow + start, end - start, estimate, locator));
      specs.add(spec);
    }
  }

  private static long[] rowCounts(List<BlockMetaData> blocks) {
    long[] rows = new long[blocks.size()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = blocks.get(i).getRowCount();
    }
    return rows;
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
  /**
   * The footer, read from {@code opened}'s status. With a cache, the file's status is taken again
   * after a read from the file, so that a footer is cached under the identity of the version it was
   * read from: a rewrite between the status and the read throws {@link FileChangedWhileReading} and
   * the planner starts again from the new status.
   */
  private FooterLoader.LoadedFooter loadFooter(
      PlanInput opened, Cache cache, RowGroupSelection selection) throws IOException {
    FileSystem fs = file.path().getFileSystem(opened.conf());
    FileVersionCheck check =
        cache == null || opened.identity() == null
            ? null
            : () -> FileIdentity.of(fs.getFileStatus(file.path()));
    return FooterLoader.load(
        file,
        opened.input(),
        opened.length(),
        cache,
        opened.identity(),
        check,
        selection,
        options.filter() != null ? null : this::projectedPaths,
        counters);
  }

  private void checkChunks(BlockMetaData block, int rowGroup, Projection projection, long length)
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
                + rowGroup
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
