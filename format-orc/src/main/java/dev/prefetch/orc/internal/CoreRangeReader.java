package dev.prefetch.orc.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.orc.internal.metadata.CountingFileSystem;
import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.orc.internal.plan.StrideLocator;
import dev.prefetch.orc.internal.reader.BatchTooLargeException;
import dev.prefetch.spi.ColumnArrayPools;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;

/**
 * Reads ranges of one ORC file with orc-core, one stripe at a time.
 *
 * <p>Threads: confined to the thread the runtime gives it (a producer, or the caller on the single
 * path); nothing here is shared except the plan, which is immutable.
 *
 * <p>It owns one orc-core {@link Reader} (built from the plan's tail, so it reads no tail), one
 * stream for stripe bytes, and at most one {@link RecordReader}, over one stripe from the first
 * stride of a range to the stripe's end ({@link StrideWindowRecordReader}); a reader spanning
 * several stripes would load the next stripe eagerly at each stripe end, which another producer may
 * own. Later ranges of the same stripe reuse it: it goes on if the range starts where the previous
 * one stopped, else it seeks. orc-core gets its bytes through a {@link SharedDataReader}: for a
 * stripe the plan reads whole, slices of the plan's {@link StripeBuffers}, which every producer
 * shares, so each byte is read once however the stripe's ranges are spread; otherwise (row ranges,
 * a predicate) the row groups it asks for, read once for all the stripe's readers ({@link
 * StripeRequests}), which therefore all open the stripe at its first stride in the plan. The window
 * runs to the stripe's end rather than the range's because orc-core pads every partial read of a
 * compressed stream by two compression blocks, and because a window per range would decompress
 * again the blocks its neighbours share.
 *
 * <p>One set of orc-core column vectors serves every batch: allocating them afresh per batch (a
 * null mask for every column, the per-value references of every string column...) cost more than
 * the conversion itself. The converted vectors still keep orc-core's {@code long[]}, {@code
 * double[]} and null-mask arrays without copying: once a batch is converted, the converter gives
 * the orc-core vectors it took arrays from other ones (see {@link VectorConverter}, {@link
 * BatchConversion}): the arrays of batches the consumer released, kept per column ({@link
 * VectorArrayPool}), else new ones.
 */
final class CoreRangeReader implements RangeReader {

  private final OrcFilePlan plan;
  private final Projection projection;
  private final Schema schema;
  private final int[] readSchemaIndex;
  private final ArrayDeque<RecordBatch> pending = new ArrayDeque<>();

  /** Converts orc-core's batch into ours and takes released batches' arrays back. */
  private final BatchConversion conversion;

  /** The reused orc-core vectors of the top-level columns read, at the plan's batch size. */
  private final org.apache.hadoop.hive.ql.exec.vector.ColumnVector[] readColumns;

  /** A batch over {@link #readColumns} at full size; shorter batches get a wrapper of their own. */
  private final VectorizedRowBatch fullBatch;

  private final CountingFileSystem fs;
  private Reader reader;

  /** This reader's stream for stripe bytes, opened at the first stripe. */
  private FSDataInputStream stream;

  private RecordReader rows;
  private int rowsStripe = -1;

  /** Whether the current range is read to its end (and reported as done). */
  private boolean rangeFinished = true;

  private int windowFirst;
  private long end;
  private boolean done = true;
  private boolean filtering;
  private long filteredBatchStart = -1;

  /** What this reader's stripe bytes are reported to (see {@link SharedDataReader}). */
  private final MemoryLedger ledger;

  /** What this reader counts into: the read's counters. */
  private final ScanCounters counters;

  CoreRangeReader(OrcFilePlan plan, ReaderContext context) throws IOException {
    this.plan = plan;
    this.ledger = context.ledger();
    this.counters = context.counters();
    ColumnArrayPools arrays = context.pools();
    this.projection = plan.projection();
    this.schema = projection.schema();
    this.conversion = new BatchConversion(plan.file(), projection, arrays);
    // A struct of only the top-level columns read, to allocate their vectors (and no others).
    TypeDescription fileSchema = projection.fileSchema();
    TypeDescription struct;
    if (projection.structRoot()) {
      List<TypeDescription> children = fileSchema.getChildren();
      this.readSchemaIndex = new int[children.size()];
      struct = TypeDescription.createStruct();
      int next = 0;
      for (int i = 0; i < children.size(); i++) {
        if (projection.isTopLevelRead(i)) {
          struct.addField(fileSchema.getFieldNames().get(i), children.get(i).clone());
          readSchemaIndex[i] = next++;
        } else {
          readSchemaIndex[i] = -1;
        }
      }
    } else {
      // orc-core reads a root of another type into the one column of the batch it makes
      this.readSchemaIndex = new int[] {0};
      struct = fileSchema;
    }
    this.readColumns =
        struct.createRowBatch(TypeDescription.RowBatchVersion.USE_DECIMAL64, plan.batchSize()).cols;
    this.fullBatch = wrap(plan.batchSize());
    this.fs = plan.newCountingFileSystem();
    this.reader = plan.openOrcReader(fs);
  }

  @Override
  public void start(ReadRange range) throws IOException {
    StrideLocator locator = plan.locator(range.index());
    pending.clear();
    boolean loaded =
        rows != null && rowsStripe == locator.stripe() && locator.firstStride() >= windowFirst;
    if (!loaded) {
      closeRows();
      int windowStart = plan.windowStart(locator);
      try {
        rows = openRows(locator.stripe(), windowStart);
      } catch (IOException | RuntimeException | Error e) {
        try {
          fs.closeOpenStreams(); // orc-core leaks the stream of a record reader that fails to open
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
        if (e instanceof IOException io) {
          throw corruptIfStreamEnded(io, locator.stripe());
        }
        if (e instanceof RuntimeException) {
          // orc-core's stripe set-up fails on inconsistent stripe metadata (a stream missing, a
          // row index entry out of range) with unchecked exceptions: a corrupt file
          throw new CorruptFileException(
              "Cannot read ORC file " + plan.file() + ", stripe " + locator.stripe() + ": " + e, e);
        }
        throw e;
      }
      rowsStripe = locator.stripe();
      windowFirst = windowStart;
    }
    if (rows.getRowNumber() != range.firstRow()) {
      try {
        rows.seekToRow(range.firstRow());
      } catch (IOException e) {
        throw corruptIfStreamEnded(e, rowsStripe);
      } catch (RuntimeException e) {
        // a row index or stream that does not fit the stripe's columns
        throw new CorruptFileException(
            "Cannot seek in ORC file "
                + plan.file()
                + ", stripe "
                + rowsStripe
                + " to row "
                + range.firstRow()
                + ": "
                + e,
            e);
      }
    }
    end = range.endRow();
    done = false;
    rangeFinished = false;
  }

  /**
   * A record reader over one stripe. When orc-core filters rows itself (a SearchArgument with
   * {@code orc.sarg.to.filter}), one {@code nextBatch} may read and drop several internal batches
   * that select no row before returning one, and nothing in the batch says where its rows start. A
   * first filter that selects everything records the row number orc-core is at when each internal
   * batch is filtered; the last one recorded is where the returned batch starts.
   */
  private RecordReader openRows(int stripe, int firstStride) throws IOException {
    Reader.Options options = plan.stripeOptions(reader, stripe);
    if (stream == null) {
      stream = fs.open(plan.file().path());
    }
    options.dataReader(
        new SharedDataReader(
            plan.file(),
            stream,
            ledger,
            plan.stripeBuffers(),
            plan.stripeRequests(),
            stripe,
            reader.getCompressionKind(),
            reader.getCompressionSize()));
    filtering = options.getSearchArgument() != null && options.isAllowSARGToFilter();
    if (filtering) {
      options.setRowFilter(plan.predicateColumns(), context -> recordFilteredBatchStart());
    }
    CheckedRecordReader.ReadChecks checks =
        new CheckedRecordReader.ReadChecks(
            counters,
            plan.maxBatchBytes(),
            OrcChecks.stripeValueBytes(
                reader.getStripes().get(stripe), reader.getCompressionKind()),
            plan.file() + ", stripe " + stripe);
    if (firstStride < 0 || options.getSearchArgument() == null) {
      return CheckedRecordReader.open(reader, options, checks); // whole stripes
    }
    int strides = plan.strideCount(stripe);
    return StrideWindowRecordReader.open(
        reader, options, firstStride, strides - 1, strides, checks);
  }

  private void recordFilteredBatchStart() {
    try {
      filteredBatchStart = rows.getRowNumber();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public RecordBatch next() throws IOException {
    while (pending.isEmpty()) {
      if (done) {
        return null;
      }
      long row = rows.getRowNumber();
      if (row >= end) {
        finishRange();
        return null;
      }
      int max = (int) Math.min(plan.batchSize(), end - row);
      VectorizedRowBatch batch = max == plan.batchSize() ? fullBatch : wrap(max);
      filteredBatchStart = -1;
      if (!nextBatch(batch) || batch.size == 0) {
        finishRange();
        return null;
      }
      long first = filtering && filteredBatchStart >= 0 ? filteredBatchStart : row;
      if (first >= end) {
        finishRange(); // orc-core's filter loop ran into the next range: those rows are not ours
        return null;
      }
      // Rows at or past the range end (only after such a filter loop) belong to another range.
      int limit = (int) Math.min(Integer.MAX_VALUE, end - first);
      try {
        if (batch.selectedInUse) {
          addSelectedRuns(batch, first, limit);
        } else {
          pending.add(conversion.convert(batch, first, 0, Math.min(batch.size, limit)));
        }
      } finally {
        conversion.release(); // before orc-core fills the vectors again
      }
    }
    return pending.poll();
  }

  /** Ends the current range; the plan drops a shared stripe once all its ranges are read. */
  private void finishRange() {
    done = true;
    if (!rangeFinished) {
      rangeFinished = true;
      if (plan.stripeBuffers().shares(rowsStripe)) {
        plan.stripeBuffers().rangeDone(rowsStripe);
      } else if (plan.stripeRequests().shares(rowsStripe)) {
        plan.stripeRequests().rangeDone(rowsStripe);
      }
    }
  }

  /** One output batch per run of consecutive selected rows, so each keeps exact row numbers. */
  private void addSelectedRuns(VectorizedRowBatch batch, long firstRow, int limit)
      throws ReadException {
    int[] selected = batch.selected;
    int i = 0;
    while (i < batch.size && selected[i] < limit) {
      int runStart = selected[i];
      int j = i + 1;
      while (j < batch.size && selected[j] == selected[j - 1] + 1 && selected[j] < limit) {
        j++;
      }
      pending.add(conversion.convert(batch, firstRow + runStart, runStart, j - i));
      i = j;
    }
  }

  /** A batch of at most {@code maxRows} rows over the reused vectors. */
  private VectorizedRowBatch wrap(int maxRows) {
    VectorizedRowBatch batch = new VectorizedRowBatch(readSchemaIndex.length, maxRows);
    for (int i = 0; i < readSchemaIndex.length; i++) {
      // Columns not read stay null: orc-core skips null vectors.
      batch.cols[i] = readSchemaIndex[i] < 0 ? null : readColumns[readSchemaIndex[i]];
    }
    return batch;
  }

  /**
   * orc-core's decoders fail on corrupt streams with unchecked exceptions (an index out of a
   * dictionary's bounds, a compression chunk larger than the buffer): a corrupt file, said so with
   * the file and stripe.
   *
   * <p>No allocation sized by the file reaches orc-core unchecked: the tail, stripe and stream
   * sizes are checked when the file is planned and a stripe footer read ({@link OrcChecks}), and
   * the lengths its list, map, string and binary readers allocate from are checked as they are
   * decoded ({@link LengthCheck}). An {@link OutOfMemoryError} is therefore a real heap exhaustion
   * and passes through untouched.
   *
   * <p>A run that needs more bytes than its stream holds ends in a {@link StreamEndException} from
   * the end-checked streams ({@link CheckedRecordReader}), also a corrupt file.
   */
  private boolean nextBatch(VectorizedRowBatch batch) throws IOException {
    try {
      return rows.nextBatch(batch);
    } catch (RuntimeException e) {
      throw new CorruptFileException(
          "Cannot decode ORC file " + plan.file() + ", stripe " + rowsStripe + ": " + e, e);
    } catch (IOException e) {
      throw corruptIfStreamEnded(e, rowsStripe);
    }
  }

  /**
   * A {@link CorruptFileException} naming the file and stripe when {@code e} comes from a stream
   * read past its end ({@link StreamEndException}, which orc-core wraps), the {@link
   * BatchTooLargeException} orc-core wrapped, else {@code e}.
   */
  private IOException corruptIfStreamEnded(IOException e, int stripe) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BatchTooLargeException tooLarge) {
        return tooLarge; // named and explained already; orc-core's wrapper adds nothing
      }
      if (t instanceof StreamEndException) {
        return new CorruptFileException(
            "Cannot decode ORC file " + plan.file() + ", stripe " + stripe + ": " + t.getMessage(),
            e);
      }
    }
    return e;
  }

  private void closeRows() throws IOException {
    RecordReader open = rows;
    rows = null;
    rowsStripe = -1;
    if (open != null) {
      open.close();
    }
  }

  @Override
  public void close() throws IOException {
    try {
      closeRows();
    } finally {
      Reader open = reader;
      reader = null;
      stream = null; // one of the streams closed below
      try {
        if (open != null) {
          open.close();
        }
      } finally {
        fs.closeOpenStreams();
      }
    }
  }

  /**
   * Closes this reader's streams from the closing thread so that a read stuck in one fails; the
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
