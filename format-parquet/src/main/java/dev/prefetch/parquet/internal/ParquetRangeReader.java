package dev.prefetch.parquet.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.batch.BatchRecycler;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.parquet.internal.bulk.ColumnArrays;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import dev.prefetch.parquet.internal.bulk.PageBuffers;
import dev.prefetch.parquet.internal.decode.Assembler;
import dev.prefetch.parquet.internal.decode.ColumnDecoder;
import dev.prefetch.parquet.internal.decode.Decoders;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * Reads planned ranges into batches on one thread: its own stream and parquet-hadoop file reader
 * over the plan's parsed footer, one column reader per selected leaf per row group.
 *
 * <p>A range's pages come from parquet-hadoop (all encodings, codecs, page versions and checksum
 * checks are its own): the whole row group, or with a page-filtered read only the pages that
 * overlap the range's row intervals, whose column readers then yield exactly the selected rows.
 * Without offset indexes, the whole row group is read and rows outside the intervals are skipped. A
 * batch never spans two intervals, so its rows are consecutive file rows.
 */
final class ParquetRangeReader implements RangeReader {

  private static final String ROW_GROUPS_READ = "rowGroupsRead";

  private final ParquetFilePlan plan;
  private final IndexedFileReader reader;

  /**
   * This reader's stream, which checks page headers as chunks arrive (see start()); kept for {@link
   * #abort()}.
   */
  private final PageCheckingStream stream;

  private final List<Column> columns = new ArrayList<>();

  /** Decompressed page arrays, recycled by the bulk decoders of this reader's columns. */
  private final PageBuffers buffers;

  /** The arrays column chunks are read into, reclaimed when a range's pages are released. */
  private final ChunkBuffers chunkBuffers;

  /**
   * Hands a released batch's vectors to their columns' pools. Runs on the consumer's thread; the
   * column list is fixed at construction and each pool is thread-safe.
   */
  private final BatchRecycler recycler = this::recycle;

  private ReadRange range;
  private SliceSpec spec;
  private PageReadStore pages;
  private boolean skipGaps;
  private int interval;
  private long position;

  /** Next row (counted from the row group's first) the column readers stand on when skipping. */
  private long cursor;

  /** A reader whose buffer pools report to {@code ledger}. */
  ParquetRangeReader(ParquetFilePlan plan, MemoryLedger ledger) throws IOException {
    this.plan = plan;
    this.buffers = new PageBuffers(ledger);
    this.chunkBuffers = new ChunkBuffers(ledger);
    PageCheckingStream stream = new PageCheckingStream(plan.input().newStream(), plan.file());
    this.stream = stream;
    try {
      this.reader =
          new IndexedFileReader(
              plan.input(),
              plan.footer(),
              plan.newReaderOptions(buffers, chunkBuffers),
              stream,
              plan.indexes());
    } catch (IOException | RuntimeException e) {
      stream.close();
      throw e;
    }
    reader.setRequestedSchema(plan.projection().leaves());
    for (ColumnNode node : plan.projection().columns()) {
      columns.add(
          node instanceof ColumnNode.Leaf leaf && leaf.descriptor().getMaxRepetitionLevel() == 0
              ? new FlatColumn(leaf, buffers)
              : new NestedColumn(node));
    }
  }

  @Override
  public void start(ReadRange range) throws IOException {
    releasePages();
    this.range = range;
    this.spec = plan.spec(range.index());
    this.interval = 0;
    this.position = spec.from(0);
    this.cursor = 0;
    try {
      boolean filtered = spec.pageFiltered() && !spec.whole();
      pages = read(filtered);
      skipGaps = !filtered;
      plan.counters().increment(ROW_GROUPS_READ);
      if (pages == null) {
        interval = spec.intervals(); // nothing to read
        return;
      }
      ColumnReadStore store =
          new ColumnReadStoreImpl(pages, plan.converter(), plan.fileSchema(), plan.createdBy());
      // Bulk page decoding needs the pages of one contiguous row interval (or a full row group
      // whose gaps it skips itself); several page-filtered intervals stay on the value path.
      // SelectionTest and SplitRowGroupTest start slices and row ranges inside pages.
      long bulkFirstRow = !filtered ? 0 : spec.intervals() == 1 ? spec.from(0) : -1;
      for (Column column : columns) {
        column.bind(store, pages, bulkFirstRow);
      }
    } catch (RuntimeException e) {
      throw failure(null, e);
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
    stream.arm(where, filtered ? List.of() : chunkSpans(where));
    try {
      return filtered
          ? RowRangesCompat.readFiltered(
              reader, spec.rowGroup(), spec.rowGroupRows(), spec.bounds())
          : reader.readRowGroup(spec.rowGroup());
    } catch (IOException | RuntimeException | Error e) {
      chunkBuffers.forget(); // a vectored range may still be in flight into one of them
      throw e;
    } finally {
      stream.disarm();
    }
  }

  /** The selected chunks of the range's row group, whole. */
  private List<PageHeaderCheck.Span> chunkSpans(String where) {
    Set<ColumnPath> selected = new HashSet<>();
    for (ColumnDescriptor leaf : plan.projection().leaves()) {
      selected.add(ColumnPath.get(leaf.getPath()));
    }
    List<PageHeaderCheck.Span> spans = new ArrayList<>();
    for (ColumnChunkMetaData chunk : plan.footer().getBlocks().get(spec.rowGroup()).getColumns()) {
      if (selected.contains(chunk.getPath())) {
        long start = chunk.getStartingPos();
        spans.add(new PageHeaderCheck.Span(start, start + chunk.getTotalSize(), chunk, where));
      }
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
      for (Column column : columns) {
        try {
          if (skipGaps && cursor < position) {
            column.skip(position - cursor);
          }
          vectors.add(column.read(rows));
        } catch (RuntimeException e) {
          throw failure(column.name(), e);
        }
      }
      cursor = position + rows;
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

  private CorruptFileException failure(String column, RuntimeException e) {
    String where = column == null ? "" : ", column '" + column + "'";
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
      PageReadStore done = pages;
      pages = null;
      try {
        done.close();
      } catch (Exception e) {
        // releasing buffers of a finished row group cannot lose data; nothing to report
      }
      chunkBuffers.reclaim(); // what a vectored read lent, which parquet-hadoop never releases
    }
  }

  @Override
  public void close() throws IOException {
    releasePages();
    reader.close();
  }

  /** One top-level projected column. */
  private abstract static class Column {
    abstract String name();

    /** Binds to a row group's readers; {@code bulkFirstRow} &lt; 0 rules out bulk decoding. */
    abstract void bind(ColumnReadStore store, PageReadStore pages, long bulkFirstRow);

    abstract ColumnVector read(int rows);

    abstract void skip(long rows);

    /** Takes back the arrays of a released vector of this column (thread-safe); may ignore it. */
    void recycle(ColumnVector vector) {}
  }

  /** A column without repetition: the decoder's tight loop, one entry per row. */
  private static final class FlatColumn extends Column {
    private final ColumnNode.Leaf leaf;
    private final ColumnDecoder decoder;
    private final int maxDef;
    private final PageBuffers buffers;

    /** The arrays of this column's released vectors, for its next batches. */
    private final ColumnArrays arrays = new ColumnArrays();

    private ColumnReader reader;

    /** The bulk page decoder of the current row group, or null on the value path. */
    private FlatPageReader bulk;

    FlatColumn(ColumnNode.Leaf leaf, PageBuffers buffers) {
      this.leaf = leaf;
      this.buffers = buffers;
      this.decoder = Decoders.decoderFor(leaf.primitiveType(), leaf.type());
      this.maxDef = leaf.descriptor().getMaxDefinitionLevel();
    }

    @Override
    String name() {
      return leaf.name();
    }

    @Override
    void bind(ColumnReadStore store, PageReadStore pages, long bulkFirstRow) {
      if (bulkFirstRow >= 0
          && decoder.supportsBulk()
          && FlatPageReader.supports(leaf.descriptor())) {
        bulk =
            new FlatPageReader(
                leaf.descriptor(),
                pages.getPageReader(leaf.descriptor()),
                bulkFirstRow,
                buffers,
                arrays);
        reader = null;
      } else {
        bulk = null;
        reader = store.getColumnReader(leaf.descriptor());
      }
    }

    @Override
    ColumnVector read(int rows) {
      return bulk != null
          ? decoder.decodeBulk(bulk, rows)
          : decoder.decodeFlat(reader, maxDef, rows);
    }

    @Override
    void recycle(ColumnVector vector) {
      arrays.recycle(vector);
    }

    @Override
    void skip(long rows) {
      if (bulk != null) {
        bulk.skip(rows);
        return;
      }
      for (long i = 0; i < rows; i++) {
        if (reader.getCurrentDefinitionLevel() == maxDef) {
          reader.skip();
        }
        reader.consume();
      }
    }
  }

  /** A nested column: an assembler over the readers of its leaves. */
  private static final class NestedColumn extends Column {
    private final ColumnNode node;
    private final Assembler assembler;
    private final List<Assembler.LeafAssembler> leaves = new ArrayList<>();

    NestedColumn(ColumnNode node) {
      this.node = node;
      this.assembler = Assembler.of(node);
      assembler.collectLeaves(leaves);
    }

    @Override
    String name() {
      return node.name();
    }

    @Override
    void bind(ColumnReadStore store, PageReadStore pages, long bulkFirstRow) {
      for (Assembler.LeafAssembler leaf : leaves) {
        leaf.setReader(store.getColumnReader(leaf.leaf().descriptor()));
      }
    }

    @Override
    ColumnVector read(int rows) {
      for (int i = 0; i < rows; i++) {
        assembler.readSlot();
      }
      return assembler.finish();
    }

    @Override
    void skip(long rows) {
      // Rare (files without offset indexes): assemble and drop, a batch at a time.
      long left = rows;
      while (left > 0) {
        int n = (int) Math.min(left, 4096);
        read(n);
        left -= n;
      }
    }
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
