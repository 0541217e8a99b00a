package dev.prefetch.orc.internal;

import dev.prefetch.orc.internal.metadata.OrcChecks;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.ReaderImpl;
import org.apache.orc.impl.RecordReaderImpl;

/**
 * orc-core's record reader whose column readers read end-checked streams, so that a corrupt run
 * ends in a {@link StreamEndException} instead of a thread spinning in orc-core's run decoder (see
 * {@link EndCheckedInStream} for the loop).
 *
 * <p>orc-core builds its stripe planner, the factory of every column stream, privately in its
 * record reader's constructor, which also reads the first stripe. Nothing in its API hands the
 * column readers other streams, so the planner is swapped here for an {@link
 * EndCheckedStripePlanner} copied from it: once, through reflection on the private field, from
 * {@link #readStripeFooter}, which orc-core calls at the start of every stripe before it uses the
 * planner (also for the first stripe, inside the constructor). The copy shares the data reader and
 * holds no stripe yet, like the original at that point.
 *
 * <p>Where the field cannot be written (a later orc-core renames it, a later JDK refuses to write
 * it), the reader works as orc-core's own, unguarded, and says so: {@link StreamGuard} logs it
 * once, the read's metrics count the reader, and the tests fail.
 */
class CheckedRecordReader extends RecordReaderImpl {

  /** The guard of a reader under construction: orc-core reads the first stripe in super(). */
  private static final ThreadLocal<StreamGuard> CONSTRUCTING = new ThreadLocal<>();

  private final StreamGuard guard;

  /**
   * True once a stripe was read without the end check. No initializer: the first stripe is read
   * inside super(), before initializers run, and one would undo what that read set.
   */
  private boolean unguarded;

  /** The reader's memory bound for one batch's values, and where it reads, for messages. */
  private long maxBatchBytes = Long.MAX_VALUE;

  /** The most value bytes the stripe's data can decode to (see {@link LengthCheck}). */
  private long stripeValueBytes = OrcChecks.MAX_ARRAY_BYTES;

  private String where = "";

  CheckedRecordReader(ReaderImpl reader, Reader.Options options, StreamGuard guard)
      throws IOException {
    super(reader, options);
    this.guard = guard;
  }

  /**
   * A record reader over {@code options} of {@code reader}, an orc-core reader of a file; one that
   * reads without end-checked streams counts {@link StreamGuard#UNGUARDED_READERS}.
   */
  static RecordReader open(Reader reader, Reader.Options options, ReadChecks checks)
      throws IOException {
    return open(reader, options, StreamGuard.ORC_CORE, checks);
  }

  /** {@link #open(Reader, Reader.Options, ReadChecks)} with a given guard (tests). */
  static RecordReader open(
      Reader reader, Reader.Options options, StreamGuard guard, ReadChecks checks)
      throws IOException {
    return construct(
        guard, checks, () -> new CheckedRecordReader((ReaderImpl) reader, options, guard));
  }

  /**
   * What a record reader checks and where it counts: its read's counters, its memory bound for one
   * batch's values and the most value bytes its stripe's data can decode to ({@link LengthCheck}),
   * and the file and stripe it reads, for messages.
   */
  record ReadChecks(
      ScanCounters counters, long maxBatchBytes, long stripeValueBytes, String where) {}

  /** Builds a record reader of this class or a subclass. */
  interface Construction {
    CheckedRecordReader build() throws IOException;
  }

  /**
   * Runs {@code construction} with {@code guard} visible to the stripe reads inside orc-core's
   * constructor, and counts the reader in {@code counters} if it reads unguarded.
   */
  static RecordReader construct(StreamGuard guard, ReadChecks checks, Construction construction)
      throws IOException {
    CONSTRUCTING.set(guard);
    CheckedRecordReader opened;
    try {
      opened = construction.build();
    } finally {
      CONSTRUCTING.remove();
    }
    if (opened.unguarded) {
      checks.counters().increment(StreamGuard.UNGUARDED_READERS);
    }
    opened.maxBatchBytes = checks.maxBatchBytes();
    opened.stripeValueBytes = checks.stripeValueBytes();
    opened.where = checks.where();
    if (!LengthGuards.install(
        opened, opened.maxBatchBytes, opened.stripeValueBytes, opened.where)) {
      checks.counters().increment(LengthGuards.UNCHECKED_READERS);
    }
    return opened;
  }

  /** Checks the length streams of a stripe entered since the last batch, then reads a batch. */
  @Override
  public boolean nextBatch(VectorizedRowBatch batch) throws IOException {
    LengthGuards.install(this, maxBatchBytes, stripeValueBytes, where);
    return super.nextBatch(batch);
  }

  /** Whether record readers of this orc-core and JDK get end-checked streams. */
  static boolean isGuardAvailable() {
    return StreamGuard.ORC_CORE.isAvailable();
  }

  @Override
  public OrcProto.StripeFooter readStripeFooter(StripeInformation stripe) throws IOException {
    StreamGuard current = guard != null ? guard : CONSTRUCTING.get();
    if (current == null || !current.guard(this)) {
      unguarded = true;
    }
    return super.readStripeFooter(stripe);
  }
}
