package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.orc.internal.stripe.StripeEntries;
import dev.prefetch.orc.internal.stripe.VectoredRead;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;

/**
 * The bytes of the stripes a plan reads whole, read from storage once and shared by every range
 * reader of the plan.
 *
 * <p>Why: ranges of one stripe go to different producers (each takes the next range when it is
 * free, so neighbouring ranges interleave), and each producer's orc-core record reader loads the
 * stripe's streams. Loaded per producer, a stripe was read once per producer. Here a stripe's
 * selected streams are laid out as spans of neighbouring streams, one array each, read in units of
 * at most {@link #READ_UNIT_BYTES}; the record readers get slices of the arrays ({@link
 * SharedDataReader}), no copy.
 *
 * <h2>Threads</h2>
 *
 * Every producer of the plan calls in concurrently. {@link #entries} guards the entries and their
 * counts of ranges left ({@link StripeEntries}); the rest of an entry by its own monitor. A reader
 * that needs units claims those nobody loads yet and reads them through its own stream outside
 * every lock; then it waits (on the entry's monitor) for the units others are loading. Each unit is
 * read once. On remote storage ({@code together}) the first reader that needs any byte of the
 * stripe claims every unit of it and issues them as one vectored read ({@link VectoredRead}):
 * concurrent requests that cost one first-byte latency in all, while the other producers of the
 * stripe wait for that one read instead of each paying latencies of their own; its units are then
 * smaller ({@link #unitBytes}), so that the stripe's bytes arrive over several connections. On
 * local files a reader claims the units it needs one at a time, so that producers entering a stripe
 * together read its units in parallel. A failed load (an I/O error, or an interrupt when the read
 * is closed) gives its unit back unclaimed and wakes the waiters, so a waiter never waits for a
 * load that no longer runs: it loads the unit itself, or it is interrupted too. A unit's bytes are
 * never written after its load, and the monitor publishes them.
 *
 * <h2>Lifetime</h2>
 *
 * An entry counts the plan's ranges of its stripe not yet finished; when the last one finishes, the
 * entry is dropped (record readers still holding slices keep only those alive, until they move on).
 * With producers claiming ranges in order, only the stripes under their current ranges are held, at
 * most about one stripe per producer. {@link #clear()} (the plan's close) drops the rest, such as a
 * stripe whose read was stopped early.
 *
 * <h2>Memory</h2>
 *
 * A span's array counts in the ledger of the range reader whose load allocated it, from its
 * allocation (before any unit is read into it) until its entry is dropped. A reader closed before
 * then stops counting it (its ledger is closed), while the array lives until the entry goes: at
 * most the stripe under that reader's last range.
 */
final class StripeBuffers {

  /** Largest read: small enough for producers to share a stripe's reads, and one call each. */
  static final int READ_UNIT_BYTES = 8 << 20;

  /**
   * Requests a stripe's vectored read aims at: what an object store client keeps in flight for one
   * vectored read (S3A's default is 4 ranged reads at once, the benchmarks' simulated store 8).
   */
  static final int VECTORED_PARTS = 8;

  /**
   * Smallest unit of a vectored read: at 64 MiB/s and 20 ms to the first byte, 1 MiB transfers in
   * about the time a request waits, so smaller requests would mostly wait.
   */
  static final int MIN_VECTORED_UNIT_BYTES = 1 << 20;

  /** Gap between two selected streams below which reading it beats a second request. */
  static final long MAX_GAP_BYTES = 256 << 10;

  private final List<StripeInformation> stripes;

  private final boolean[] include;

  private final DataFile file;

  /** Whether a stripe's units are read together, as one vectored read (remote storage). */
  private final boolean together;

  /**
   * Per stripe read whole (the plan's ranges of it are not 0; others go to the file): its state.
   */
  private final StripeEntries<SharedStripe> entries;

  /**
   * @param file the file, for messages
   * @param stripes the file's stripes
   * @param rangesPerStripe the plan's ranges of each stripe, 0 for a stripe not to share
   * @param include orc-core's column include flags of the read
   * @param together whether to read each stripe's units together in one vectored read (remote
   *     storage) rather than each on demand (local files)
   */
  StripeBuffers(
      DataFile file,
      List<StripeInformation> stripes,
      int[] rangesPerStripe,
      boolean[] include,
      boolean together) {
    this.file = file;
    this.stripes = stripes;
    this.include = include.clone();
    this.together = together;
    this.entries = new StripeEntries<>(rangesPerStripe);
  }

  /**
   * The largest unit of a stripe whose selected streams hold {@code selectedBytes}: {@link
   * #READ_UNIT_BYTES} on local files; on remote storage small enough for the stripe to fill {@link
   * #VECTORED_PARTS} requests, down to {@link #MIN_VECTORED_UNIT_BYTES}.
   */
  static int unitBytes(long selectedBytes, boolean together) {
    if (!together) {
      return READ_UNIT_BYTES;
    }
    long share = (selectedBytes + VECTORED_PARTS - 1) / VECTORED_PARTS;
    return (int) Math.max(MIN_VECTORED_UNIT_BYTES, Math.min(READ_UNIT_BYTES, share));
  }

  /** Whether reads are issued together, as vectored reads (remote storage). */
  boolean together() {
    return together;
  }

  /** Whether stripe {@code stripe}'s reads go through here. */
  boolean shares(int stripe) {
    return entries.shares(stripe);
  }

  /** The stripe's footer, read and parsed by {@code reader} if no producer did yet. */
  OrcProto.StripeFooter footer(int stripe, FooterReader reader) throws IOException {
    SharedStripe entry = entry(stripe);
    synchronized (entry) {
      if (entry.footer == null) {
        OrcProto.StripeFooter footer = reader.read(stripes.get(stripe));
        entry.layOut(footer, stripes.get(stripe), include);
      }
      return entry.footer;
    }
  }

  /**
   * The stripe's bytes {@code [offset, offset + length)}, loading what is missing through {@code
   * in}; null when they do not lie in one span of selected streams (the caller reads them from the
   * file).
   */
  ByteBuffer slice(int stripe, long offset, int length, FSDataInputStream in, MemoryLedger ledger)
      throws IOException {
    SharedStripe entry = entry(stripe);
    int span;
    int first;
    int last;
    long spanStart;
    synchronized (entry) {
      if (entry.footer == null) {
        return null; // orc-core reads the footer first; without it there is no layout
      }
      first = entry.unitAt(offset);
      last = entry.unitAt(offset + length - 1);
      if (first < 0 || last < 0 || entry.unitSpan[first] != entry.unitSpan[last]) {
        return null;
      }
      span = entry.unitSpan[first];
      spanStart = entry.spanStarts[span];
    }
    byte[] data = entry.load(first, last, in, ledger);
    return ByteBuffer.wrap(data, (int) (offset - spanStart), length).slice();
  }

  /** Notes that one of the plan's ranges of {@code stripe} is read; the last one drops it. */
  void rangeDone(int stripe) {
    entries.rangeDone(stripe);
  }

  /** Drops every stripe held. */
  void clear() {
    entries.clear();
  }

  private SharedStripe entry(int stripe) {
    return entries.get(
        stripe, () -> new SharedStripe(file, together), "is not read through shared buffers");
  }

  /** Reads and parses a stripe footer from the file. */
  interface FooterReader {
    OrcProto.StripeFooter read(StripeInformation stripe) throws IOException;
  }
}
