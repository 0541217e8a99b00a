package dev.prefetch.parquet.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadException;
import dev.prefetch.batch.BatchRecycler;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.parquet.internal.check.PageCheckingStream;
import dev.prefetch.parquet.internal.check.PageChecksums;
import dev.prefetch.parquet.internal.check.PageHeaderCheck;
import dev.prefetch.parquet.internal.compat.RowRangesCompat;
import dev.prefetch.parquet.internal.flat.ValueOutOfRange;
import dev.prefetch.parquet.internal.index.IndexedFileReader;
import dev.prefetch.parquet.internal.io.ChunkAllocator;
import dev.prefetch.parquet.internal.io.CountingInputFile;
import dev.prefetch.parquet.internal.plan.ColumnNode;
import dev.prefetch.parquet.internal.plan.SliceSpec;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.ColumnArrayPools;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads planned ranges into batches on one thread: its own stream and parquet-hadoop file reader
 * over the plan's parsed footer, and one {@link ProjectedColumn} per top-level projected column.
 *
 * <p>A range's column chunks are read and decompressed by parquet-hadoop (codecs, page versions and
 * checksum checks are its own): the whole row group, or with a page-filtered read only the pages
 * that overlap the range's row intervals. The columns decode those pages themselves (see {@code
 * page}, {@code flat} and {@code nested}) and seek to the first row of every batch, dropping the
 * pages and values before it. A batch never spans two intervals, so its rows are consecutive file
 * rows.
 */
final class ParquetRangeReader implements RangeReader {

  private static final String ROW_GROUPS_READ = "rowGroupsRead";

  /** Row groups whose chunks were read ahead and then served to their range's read. */
  static final String ROW_GROUPS_READ_AHEAD = "rowGroupsReadAhead";

  private final ParquetFilePlan plan;
  private final IndexedFileReader reader;

  /**
   * This reader's stream, which checks page headers as chunks arrive (see start()); kept for {@link
   * #abort()}.
   */
  private final PageCheckingStream stream;

  private final List<ProjectedColumn> columns = new ArrayList<>();

  /** The arrays pages are decompressed into, given back by flat columns page by page. */
  private final ByteArrayPool pageArrays;

  /** The arrays column chunks are read into, reclaimed when a range's pages are released. */
  private final ChunkAllocator chunkAllocator;

  /**
   * Hands a released batch's vectors to their columns' pools. Runs on the consumer's thread; the
   * column list is fixed at construction and each pool is thread-safe.
   */
  private final BatchRecycler recycler = this::recycle;

  private final ScanCounters counters;

  /** The stream's vectored gate when it reads vectored (off the local filesystem), else null. */
  private final CountingInputFile.VectoredGate gate;

  /** The range whose row group is being read ahead ({@link #prefetch}), or null. */
  private ReadRange ahead;

  private ReadRange range;
  private SliceSpec spec;
  private PageReadStore pages;
  private int interval;

  /** The first row (within the row group) of the next batch. */
  private long position;

  /**
   * A reader whose buffer pools report to {@code context}'s ledger, whose vectors' arrays come from
   * the read's pools, and which counts into the read's counters.
   */
  ParquetRangeReader(ParquetFilePlan plan, ReaderContext context) throws IOException {
    this.plan = plan;
    this.counters = context.counters();
    MemoryLedger ledger = context.ledger();
    ColumnArrayPools arrays = context.pools();
    // Views of their own: an uncompressed page is a slice of its chunk's array, and handing the
    // page back must not free the chunk (each view takes back only what it lent).
    this.pageArrays = context.buffers().view();
    this.chunkAllocator = new ChunkAllocator(ledger, context.buffers().view());
    SeekableInputStream input = plan.input().newStream();
    this.gate =
        input instanceof CountingInputFile.VectoredGate vectored && vectored.readsVectored()
            ? vectored
            : null;
    PageCheckingStream stream = new PageCheckingStream(input, plan.file());
    this.stream = stream;
    try {
      this.reader =
          new IndexedFileReader(
              plan.input(),
              plan.footer(),
              plan.newReaderOptions(pageArrays, chunkAllocator),
              stream,
              plan.indexes(),
              plan.coalescing());
    } catch (IOException | RuntimeException e) {
      stream.close();
      throw e;
    }
    reader.setRequestedSchema(plan.projection().leaves());
    List<ColumnNode> projected = plan.projection().columns();
    for (int c = 0; c < projected.size(); c++) {
      ColumnNode node = projected.get(c);
      columns.add(
          ProjectedColumn.of(
              node, pageArrays, plan.dictionaryVectors().includes(node.name()), arrays.column(c)));
    }
  }

  @Override
  public void start(ReadRange range) throws IOException {
    releasePages();
    if (ahead != null) {
      if (ahead.index() == range.index()) {
        chunkAllocator.adoptReadAhead(); // its reads serve this row group's now
        counters.increment(ROW_GROUPS_READ_AHEAD);
      } else {
        gate.dropReadAhead();
        chunkAllocator.forgetReadAhead();
      }
      ahead = null;
    }
    this.range = range;
    this.spec = plan.spec(range.index());
    reader.retainOffsetIndexes(selectedChunks()); // this row group's: kept for its next slices
    this.interval = 0;
    this.position = spec.from(0);
    try {
      boolean filtered = spec.pageFiltered() && !spec.whole();
      pages = read(filtered);
      counters.increment(ROW_GROUPS_READ);
      if (pages == null) {
        interval = spec.intervals(); // nothing to read
        return;
      }
      BlockMetaData block = plan.footer().getBlocks().get(spec.rowGroup());
      for (ProjectedColumn column : columns) {
        column.bind(pages, block);
      }
    } catch (RuntimeException e) {
      throw failure(null, e);
    }
  }

  /**
   * Reads the column chunks of {@code next}'s row group ahead, while this range is decoded: off the
   * local filesystem, where a read waits for a first byte and transfers at a stream's rate, that
   * wait and transfer then overlap with the decoding instead of following it. Only whole row groups
   * (a page slice reads selected pages, which its offset indexes place when it starts). The bytes
   * count in this reader's ledger from their allocation.
   */
  @Override
  public void prefetch(ReadRange next) throws IOException {
    if (gate == null || ahead != null) {
      return;
    }
    SliceSpec nextSpec = plan.spec(next.index());
    List<ColumnChunkMetaData> chunks = selectedChunks(nextSpec.rowGroup());
    List<long[]> spans = new ArrayList<>();
    try {
      if (nextSpec.pageFiltered() && !nextSpec.whole()) {
        // A slice reads its chunks' dictionaries and the pages its rows lie in, which the offset
        // indexes place: read them now (one joined request), kept for the slice's own read.
        List<OffsetIndex> indexes = reader.readOffsetIndexesAhead(chunks);
        for (int c = 0; c < chunks.size(); c++) {
          if (indexes.get(c) == null) {
            return; // a chunk without pages placed: read the slice as it comes
          }
          addPageSpans(spans, chunks.get(c), indexes.get(c), nextSpec);
        }
      } else {
        for (ColumnChunkMetaData chunk : chunks) {
          addSpan(spans, chunk.getStartingPos(), chunk.getStartingPos() + chunk.getTotalSize());
        }
      }
    } catch (IOException | RuntimeException e) {
      return; // reading ahead is an optimisation: the range's own read reports any failure
    }
    if (spans.isEmpty()) {
      return;
    }
    try {
      gate.readAhead(spans, chunkAllocator.forReadAhead());
    } catch (IOException | RuntimeException e) {
      chunkAllocator.forgetReadAhead(); // a run may be in flight: the range reads it again
      gate.dropReadAhead();
      return; // reading ahead is an optimisation: the range's own read reports any failure
    }
    ahead = next;
  }

  /** Adds the byte spans a read of {@code spec}'s rows asks for in {@code chunk}. */
  private static void addPageSpans(
      List<long[]> spans, ColumnChunkMetaData chunk, OffsetIndex index, SliceSpec spec) {
    if (index.getPageCount() == 0) {
      return;
    }
    long firstPage = index.getOffset(0);
    if (chunk.getStartingPos() < firstPage) {
      addSpan(spans, chunk.getStartingPos(), firstPage); // the dictionary page
    }
    for (int page = 0; page < index.getPageCount(); page++) {
      long first = index.getFirstRowIndex(page);
      long last = index.getLastRowIndex(page, spec.rowGroupRows());
      for (int i = 0; i < spec.intervals(); i++) {
        if (first < spec.to(i) && last >= spec.from(i)) {
          long start = index.getOffset(page);
          addSpan(spans, start, start + index.getCompressedPageSize(page));
          break;
        }
      }
    }
  }

  /** Adds {@code [start, end)}, joined with the last span when they touch. */
  private static void addSpan(List<long[]> spans, long start, long end) {
    long[] last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
    if (last != null && last[0] + last[1] == start) {
      last[1] = end - last[0]; // adjacent: one run, as parquet-hadoop asks for them
    } else {
      spans.add(new long[] {start, end - start});
    }
  }

  /**
   * Reads the range's row group (or its selected pages) with parquet-hadoop, every page header
   * checked before parquet-hadoop parses it and allocates from its sizes ({@link PageHeaderCheck}):
   * the stream is armed with the selected chunks (a read of selected pages adds the pages its
   * offset indexes place) and checks each as its last byte arrives. No {@link OutOfMemoryError} is
   * caught: no size from the file reaches an allocation unchecked.
   */
  private PageReadStore read(boolean filtered) throws IOException {
    String where = range.locator().toString();
    List<ColumnChunkMetaData> chunks = selectedChunks();
    stream.arm(where, filtered ? List.of() : chunkSpans(chunks, where));
    if (filtered) {
      reader.armOffsetIndexes(chunks); // read only if parquet-hadoop has not read them yet
    }
    try {
      return filtered
          ? RowRangesCompat.readFiltered(
              reader, spec.rowGroup(), spec.rowGroupRows(), spec.bounds())
          : reader.readRowGroup(spec.rowGroup());
    } catch (IOException | RuntimeException | Error e) {
      chunkAllocator.forget(); // a vectored range may still be in flight into one of them
      throw e;
    } finally {
      stream.disarm();
      reader.disarmOffsetIndexes();
    }
  }

  /** The selected chunks of the range's row group, in file order. */
  private List<ColumnChunkMetaData> selectedChunks() {
    return selectedChunks(spec.rowGroup());
  }

  /** The selected chunks of row group {@code rowGroup}, in file order. */
  private List<ColumnChunkMetaData> selectedChunks(int rowGroup) {
    Set<ColumnPath> selected = new HashSet<>();
    for (ColumnDescriptor leaf : plan.projection().leaves()) {
      selected.add(ColumnPath.get(leaf.getPath()));
    }
    List<ColumnChunkMetaData> chunks = new ArrayList<>();
    for (ColumnChunkMetaData chunk : plan.footer().getBlocks().get(rowGroup).getColumns()) {
      if (selected.contains(chunk.getPath())) {
        chunks.add(chunk);
      }
    }
    return chunks;
  }

  /** {@code chunks}, whole. */
  private static List<PageHeaderCheck.Span> chunkSpans(
      List<ColumnChunkMetaData> chunks, String where) {
    List<PageHeaderCheck.Span> spans = new ArrayList<>();
    for (ColumnChunkMetaData chunk : chunks) {
      long start = chunk.getStartingPos();
      spans.add(new PageHeaderCheck.Span(start, start + chunk.getTotalSize(), chunk, where));
    }
    return spans;
  }

  @Override
  public RecordBatch next() throws IOException {
    if (spec == null) {
      throw new IllegalStateException("next() before start()");
    }
    while (interval < spec.intervals()) {
      long to = spec.to(interval);
      if (position >= to) {
        interval++;
        if (interval < spec.intervals()) {
          position = spec.from(interval);
        }
        continue;
      }
      int rows = (int) Math.min(plan.batchSize(), to - position);
      List<ColumnVector> vectors = new ArrayList<>(columns.size());
      for (ProjectedColumn column : columns) {
        try {
          column.seek(position);
          vectors.add(column.read(rows));
        } catch (RuntimeException e) {
          throw failure(column.name(), e);
        }
      }
      RecordBatch batch =
          new RecordBatch(
              plan.file(),
              spec.rowGroupFirstRow() + position,
              rows,
              plan.schema(),
              vectors,
              recycler);
      position += rows;
      return batch;
    }
    return null;
  }

  private void recycle(List<ColumnVector> vectors) {
    for (int i = 0; i < vectors.size(); i++) {
      columns.get(i).recycle(vectors.get(i));
    }
  }

  private ReadException failure(String column, RuntimeException e) {
    String where = column == null ? "" : ", column '" + column + "'";
    if (e instanceof ValueOutOfRange outOfRange && !outOfRange.corruptFile()) {
      // a valid file whose value the read's type cannot hold: no corrupt file
      return new ReadException(
          plan.file(),
          (range == null ? "" : range.locator()) + where + ": " + e.getMessage(),
          null);
    }
    if (spec != null && PageChecksums.isChecksumFailure(e)) {
      Set<ColumnPath> selected = new HashSet<>();
      for (ColumnDescriptor leaf : plan.projection().leaves()) {
        selected.add(ColumnPath.get(leaf.getPath()));
      }
      String page =
          PageChecksums.locateMismatch(
              plan.input(), plan.footer().getBlocks().get(spec.rowGroup()), selected);
      if (page != null) {
        where = ", " + page;
      }
    }
    return new CorruptFileException(
        "Cannot read "
            + plan.file()
            + ", "
            + (range == null ? "" : range.locator())
            + where
            + ": "
            + e.getMessage(),
        e);
  }

  private void releasePages() {
    if (pages != null) {
      for (ProjectedColumn column : columns) {
        column.release(); // before the next row group decompresses into the pool
      }
      PageReadStore done = pages;
      pages = null;
      try {
        done.close();
      } catch (Exception e) {
        // releasing buffers of a finished row group cannot lose data; nothing to report
      }
      chunkAllocator.reclaim(); // what a vectored read lent, which parquet-hadoop never releases
    }
  }

  @Override
  public void close() throws IOException {
    releasePages();
    if (ahead != null) {
      chunkAllocator.forgetReadAhead(); // never used: its reads may still be in flight
      ahead = null;
    }
    reader.close();
  }

  /**
   * Closes the stream from the closing thread so that a read stuck in it fails (the stream's own
   * close is idempotent; this reader is then only closed).
   */
  @Override
  public void abort() {
    try {
      stream.close();
    } catch (IOException | RuntimeException ignored) {
      // the read is being abandoned; its own close reports nothing either
    }
  }
}
