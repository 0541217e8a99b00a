package dev.prefetch.orc.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.batch.BatchRecycler;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.metadata.CountingFileSystem;
import dev.prefetch.orc.internal.plan.StrideLocator;
import dev.prefetch.orc.internal.reader.BatchTooLargeException;
import dev.prefetch.orc.internal.reader.ColumnReaders;
import dev.prefetch.orc.internal.reader.ProjectedColumnReader;
import dev.prefetch.orc.internal.reader.ValueRangeException;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.orc.internal.stripe.StripeEntry;
import dev.prefetch.orc.internal.stripe.StripeIo;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Reads ranges of one ORC file with the read path of our own: the plan's shared stripe reads
 * ({@link StripeEntry}: footer, row index, row group selection and bytes, each read once for all
 * producers) and one {@link ProjectedColumnReader} per output column, which decodes a batch's rows
 * of the column straight into the batch's vectors.
 *
 * <p>Threads: confined to the thread the runtime gives it (a producer, or the caller on the single
 * path); what it shares with other range readers is the plan's, which is thread-safe.
 *
 * <h2>How a range is read</h2>
 *
 * A range lies in one stripe and covers whole row groups (or, clipped by row ranges, part of them).
 * The column readers are made at the range's first batch in a stripe and kept for later ranges of
 * the same stripe: a range that starts where the last one stopped goes on, one that starts later in
 * the same row group skips to it, any other seeks to its row group by the row index and skips
 * within it. Under a predicate only the row groups it selects are read: a batch never crosses from
 * a selected row group into one left out, so batches end at the range's end, at a run of selected
 * row groups' end, and at the batch size.
 *
 * <h2>Errors</h2>
 *
 * A stream whose bytes do not hold what they say is a {@link CorruptFileException} naming the file,
 * stripe and column; so is an unchecked exception out of decoding (a reader bug met by a corrupt
 * file must not pass for anything else). A valid file whose values the read cannot hold fails with
 * the {@link BatchTooLargeException} or {@link ValueRangeException} that says so. A reader that
 * threw is only closed.
 */
final class OrcRangeReader implements RangeReader {

  private final OrcFilePlan plan;
  private final ReaderContext context;
  private final Projection projection;
  private final Schema schema;
  private final VectorArrayPool[] pools;
  private final BatchRecycler recycler;
  private final CountingFileSystem fs;
  private final DecompressionContext decompression;
  private final int batchSize;
  private final long stride;

  /** This reader's stream and codec, lent to the stripes' shared reads; made at the first range. */
  private StripeIo io;

  /** The stripe of the current range; null before the first. */
  private StripeEntry stripe;

  private long stripeFirstRow;

  /** The row groups the predicate selects in the stripe; null for all. */
  private boolean[] selection;

  /** The column readers of the stripe, made at its first batch; null until then. */
  private ProjectedColumnReader[] columns;

  /** The row filter, when the read asks for one; null otherwise. */
  private final RowFilter filter;

  /** The readers of the row filter's columns in the stripe (with {@link #columns}). */
  private ProjectedColumnReader[] filterColumns;

  /** The filter columns' pools: their vectors live for one batch's filtering. */
  private final VectorArrayPool[] filterPools;

  private final List<dev.prefetch.batch.DataType> filterTypes;

  /** The rows of a batch the filter selected. */
  private final int[] selected;

  /** Batches of the runs of selected rows of one filtered batch, not returned yet. */
  private final ArrayDeque<RecordBatch> pending = new ArrayDeque<>();

  /** The stripe row the column readers are at. */
  private long readersRow;

  /** The next stripe row of the current range to read, and its end (stripe rows). */
  private long position;

  private long rangeEnd;

  /** Whether the current range has rows left to return (it was not reported done yet). */
  private boolean rangeOpen;

  OrcRangeReader(OrcFilePlan plan, ReaderContext context) {
    this.plan = plan;
    this.context = context;
    this.projection = plan.projection();
    this.schema = projection.schema();
    this.pools = new VectorArrayPool[projection.columnCount()];
    for (int c = 0; c < pools.length; c++) {
      pools[c] = context.pools().column(c);
    }
    this.recycler = this::recycle;
    this.fs = plan.newCountingFileSystem();
    this.decompression =
        new DecompressionContext(
            plan.stripeReads().settings().compression(),
            plan.stripeReads().settings().blockSize(),
            context.ledger(),
            context.ledger().shareBytes() / 4);
    this.batchSize = plan.batchSize();
    this.stride = plan.rowIndexStride();
    this.filter = plan.newRowFilter();
    if (filter == null) {
      this.filterPools = null;
      this.filterTypes = null;
      this.selected = null;
    } else {
      this.filterPools = new VectorArrayPool[filter.columns().length];
      for (int i = 0; i < filterPools.length; i++) {
        filterPools[i] = new VectorArrayPool(1);
      }
      this.filterTypes = RowFilter.types(projection.fileSchema(), filter.columns());
      this.selected = new int[batchSize];
    }
  }

  @Override
  public void start(ReadRange range) throws IOException {
    StrideLocator locator = plan.locator(range.index());
    if (io == null) {
      FSDataInputStream in = fs.open(plan.file().path());
      io = new StripeIo(in, decompression, context.ledger());
    }
    if (stripe == null || stripe.index() != locator.stripe()) {
      closeColumns();
      stripe = plan.stripeReads().stripe(locator.stripe());
      stripeFirstRow = plan.stripeFirstRow(locator.stripe());
      selection = decoding(() -> stripe.selection(io));
    }
    position = range.firstRow() - stripeFirstRow;
    rangeEnd = range.endRow() - stripeFirstRow;
    rangeOpen = true;
    pending.clear();
    if (plan.readsAhead() && columns == null) {
      // the stripe's reads go out now, so that the column readers' first waits are shorter
      StripeEntry current = stripe;
      decoding(
          () -> {
            current.readAhead(io);
            return null;
          });
    }
  }

  /**
   * Issues the reads of the range this reader starts next, when it lies in another stripe, so that
   * they arrive while this one is decoded: only where the stream reads vectored ({@link
   * StreamCapabilities#VECTOREDIO}, as an object store's client does, asynchronously), since a
   * stream that serves a vectored read one positioned read after another would hold the producer on
   * the next stripe's bytes before it decoded the current one's. A failure to issue them fails
   * nothing here: the range's own read reads them again. A failure of the issued read is raised by
   * the range that needs its bytes ({@link StripeEntry#readAhead}).
   */
  @Override
  public void prefetch(ReadRange next) {
    StrideLocator locator = plan.locator(next.index());
    if (io == null
        || (stripe != null && stripe.index() == locator.stripe())
        || !io.in().hasCapability(StreamCapabilities.VECTOREDIO)) {
      return;
    }
    try {
      plan.stripeReads().stripe(locator.stripe()).readAhead(io);
    } catch (IOException | RuntimeException e) {
      // the range's own read reads (and reports) it again
    }
  }

  @Override
  public RecordBatch next() throws IOException {
    RecordBatch queued = pending.poll();
    if (queued != null) {
      return queued;
    }
    while (rangeOpen) {
      if (position >= rangeEnd) {
        finishRange();
        return null;
      }
      long runEnd = rangeEnd;
      if (selection != null) {
        int group = (int) (position / stride);
        if (group >= selection.length || !selection[group]) {
          int next = group + 1;
          while (next < selection.length && !selection[next]) {
            next++;
          }
          if (next >= selection.length || next * stride >= rangeEnd) {
            finishRange();
            return null;
          }
          position = next * stride;
          continue;
        }
        int end = group;
        while (end < selection.length && selection[end]) {
          end++;
        }
        runEnd = Math.min(rangeEnd, end * stride);
      }
      int rows = (int) Math.min(batchSize, runEnd - position);
      if (filter == null) {
        RecordBatch batch = decoding(() -> read(rows));
        position += rows;
        return batch;
      }
      decoding(
          () -> {
            readFiltered(rows);
            return null;
          });
      position += rows;
      if (!pending.isEmpty()) {
        return pending.poll();
      }
    }
    return null;
  }

  /**
   * Reads {@code rows} rows from {@link #position} under the row filter: the filter's columns
   * first, then the output columns of each run of selected rows (skipping the rest), one batch per
   * run so that every batch keeps its rows' numbers.
   */
  private void readFiltered(int rows) throws IOException {
    positionReaders(position);
    List<ColumnVector> values = new ArrayList<>(filterColumns.length);
    for (ProjectedColumnReader column : filterColumns) {
      values.add(column.read(rows));
    }
    int count = filter.select(values, rows, selected);
    for (int i = 0; i < values.size(); i++) {
      filterPools[i].recycle(values.get(i));
    }
    int cursor = 0;
    for (int i = 0; i < count; ) {
      int start = selected[i];
      int j = i;
      while (j + 1 < count && selected[j + 1] == selected[j] + 1) {
        j++;
      }
      int end = selected[j] + 1;
      if (start > cursor) {
        for (ProjectedColumnReader column : columns) {
          column.skip(start - cursor);
        }
      }
      List<ColumnVector> vectors = readColumns(end - start);
      pending.add(
          new RecordBatch(
              plan.file(),
              stripeFirstRow + position + start,
              end - start,
              schema,
              vectors,
              recycler));
      cursor = end;
      i = j + 1;
    }
    if (rows > cursor) {
      for (ProjectedColumnReader column : columns) {
        column.skip(rows - cursor);
      }
    }
    readersRow += rows;
  }

  /** Reads {@code rows} rows from {@link #position} into a batch. */
  private RecordBatch read(int rows) throws IOException {
    positionReaders(position);
    List<ColumnVector> vectors = readColumns(rows);
    readersRow += rows;
    return new RecordBatch(plan.file(), stripeFirstRow + position, rows, schema, vectors, recycler);
  }

  /**
   * The next {@code rows} rows of every output column; a value the batch's types cannot hold is
   * named with its output column.
   */
  private List<ColumnVector> readColumns(int rows) throws IOException {
    List<ColumnVector> vectors = new ArrayList<>(columns.length);
    for (int c = 0; c < columns.length; c++) {
      try {
        vectors.add(columns[c].read(rows));
      } catch (ValueRangeException e) {
        throw new ValueRangeException(
            stripe.where() + ", column '" + schema.field(c).name() + "'", e.problem());
      }
    }
    return vectors;
  }

  /** Makes the column readers stand at stripe row {@code target}. */
  private void positionReaders(long target) throws IOException {
    if (columns == null) {
      openColumns();
    }
    if (readersRow == target) {
      return;
    }
    boolean indexed = stride > 0 && stripe.strides() > 0;
    boolean later = target > readersRow;
    if (indexed && (!later || target / stride != readersRow / stride)) {
      int group = (int) (target / stride);
      RowIndexes indexes = stripe.rowIndexes(io);
      for (ProjectedColumnReader column : columns) {
        column.seek(indexes, group);
      }
      if (filterColumns != null) {
        for (ProjectedColumnReader column : filterColumns) {
          column.seek(indexes, group);
        }
      }
      readersRow = group * stride;
    } else if (!later) {
      closeColumns(); // no row index to seek back with: start the stripe again
      openColumns();
    }
    long skip = target - readersRow;
    if (skip > 0) {
      for (ProjectedColumnReader column : columns) {
        column.skip(skip);
      }
      if (filterColumns != null) {
        for (ProjectedColumnReader column : filterColumns) {
          column.skip(skip);
        }
      }
    }
    readersRow = target;
  }

  private void openColumns() throws IOException {
    ProjectedColumnReader[] opened = new ProjectedColumnReader[projection.columnCount()];
    ProjectedColumnReader[] filtering =
        filter == null ? null : new ProjectedColumnReader[filterPools.length];
    try {
      for (int c = 0; c < opened.length; c++) {
        opened[c] =
            ColumnReaders.create(
                projection.structIds(c),
                projection.type(c),
                schema.field(c).type(),
                plan.dictionaryVectors(c),
                stripe,
                io,
                plan.readSettings(),
                pools[c]);
      }
      if (filtering != null) {
        int[] top = filter.columns();
        for (int i = 0; i < top.length; i++) {
          filtering[i] =
              ColumnReaders.create(
                  new int[0],
                  projection.fileSchema().getChildren().get(top[i]),
                  filterTypes.get(i),
                  false,
                  stripe,
                  io,
                  plan.readSettings(),
                  filterPools[i]);
        }
      }
    } catch (IOException | RuntimeException e) {
      close(opened);
      close(filtering);
      throw e;
    }
    columns = opened;
    filterColumns = filtering;
    readersRow = 0;
  }

  private void closeColumns() {
    ProjectedColumnReader[] open = columns;
    ProjectedColumnReader[] openFilter = filterColumns;
    columns = null;
    filterColumns = null;
    close(open);
    close(openFilter);
  }

  private static void close(ProjectedColumnReader[] readers) {
    if (readers != null) {
      for (ProjectedColumnReader column : readers) {
        if (column != null) {
          column.close();
        }
      }
    }
  }

  /** Ends the current range; the plan drops the stripe once all its ranges are read. */
  private void finishRange() {
    if (rangeOpen) {
      rangeOpen = false;
      plan.stripeReads().rangeDone(stripe.index());
    }
  }

  /** Takes back a released batch's arrays; on the consumer's thread (the pools are shared). */
  private void recycle(List<ColumnVector> vectors) {
    for (int c = 0; c < vectors.size(); c++) {
      pools[c].recycle(vectors.get(c));
    }
  }

  private interface Step<T> {
    T run() throws IOException;
  }

  /**
   * Runs a step of decoding, reporting a stream that does not hold what it says, and any unchecked
   * exception out of the decoders, as a corrupt file naming the file and stripe (the stream's name
   * gives the column).
   */
  private <T> T decoding(Step<T> step) throws IOException {
    try {
      return step.run();
    } catch (CorruptStreamException e) {
      throw new CorruptFileException("Corrupt " + stripe.where() + ", " + e.getMessage(), e);
    } catch (CorruptFileException
        | BatchTooLargeException
        | ValueRangeException
        | InterruptedIOException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CorruptFileException("Cannot decode " + stripe.where() + ": " + e, e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      closeColumns();
      decompression.close();
    } finally {
      io = null;
      fs.closeOpenStreams();
    }
  }

  /**
   * Closes this reader's stream from the closing thread so that a read stuck in it fails; the
   * stream set is concurrent, and each stream's close is idempotent. The reader is then only
   * closed.
   */
  @Override
  public void abort() {
    try {
      fs.closeOpenStreams();
    } catch (IOException | RuntimeException ignored) {
      // the read is being abandoned; its own close reports nothing either
    }
  }
}
