package dev.prefetch.orc.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * Every producer of the plan calls in concurrently. {@link #entries} and each entry's {@code
 * pendingRanges} are guarded by {@code this}; the rest of an entry by its own monitor. A reader
 * that needs units claims those nobody loads yet, one at a time, and reads each through its own
 * stream outside every lock; then it waits (on the entry's monitor) for the units others are
 * loading. So producers entering a stripe together read its units in parallel, and each unit is
 * read once. A failed load (an I/O error, or an interrupt when the read is closed) gives its unit
 * back unclaimed and wakes the waiters, so a waiter never waits for a load that no longer runs: it
 * loads the unit itself, or it is interrupted too. A unit's bytes are never written after its load,
 * and the monitor publishes them.
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

  /** Gap between two selected streams below which reading it beats a second request. */
  private static final long MAX_GAP_BYTES = 256 << 10;

  private final List<StripeInformation> stripes;

  /** Plan ranges per stripe; 0 for a stripe not read whole (its reads go to the file). */
  private final int[] rangesPerStripe;

  private final boolean[] include;

  @GuardedBy("this")
  private final Entry[] entries;

  /**
   * @param stripes the file's stripes
   * @param rangesPerStripe the plan's ranges of each stripe, 0 for a stripe not to share
   * @param include orc-core's column include flags of the read
   */
  StripeBuffers(List<StripeInformation> stripes, int[] rangesPerStripe, boolean[] include) {
    this.stripes = stripes;
    this.rangesPerStripe = rangesPerStripe.clone();
    this.include = include.clone();
    this.entries = new Entry[stripes.size()];
  }

  /** Whether stripe {@code stripe}'s reads go through here. */
  boolean shares(int stripe) {
    return rangesPerStripe[stripe] > 0;
  }

  /** The stripe's footer, read and parsed by {@code reader} if no producer did yet. */
  OrcProto.StripeFooter footer(int stripe, FooterReader reader) throws IOException {
    Entry entry = entry(stripe);
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
    Entry entry = entry(stripe);
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
    Entry dropped = null;
    synchronized (this) {
      Entry entry = entries[stripe];
      if (entry != null && --entry.pendingRanges == 0) {
        entries[stripe] = null;
        dropped = entry;
      }
    }
    if (dropped != null) {
      dropped.release();
    }
  }

  /** Drops every stripe held. */
  void clear() {
    Entry[] dropped;
    synchronized (this) {
      dropped = entries.clone();
      java.util.Arrays.fill(entries, null);
    }
    for (Entry entry : dropped) {
      if (entry != null) {
        entry.release();
      }
    }
  }

  private synchronized Entry entry(int stripe) {
    if (!shares(stripe)) {
      throw new IllegalStateException("stripe " + stripe + " is not read through shared buffers");
    }
    Entry entry = entries[stripe];
    if (entry == null) {
      entry = new Entry(rangesPerStripe[stripe]);
      entries[stripe] = entry;
    }
    return entry;
  }

  /** Reads and parses a stripe footer from the file. */
  interface FooterReader {
    OrcProto.StripeFooter read(StripeInformation stripe) throws IOException;
  }

  /**
   * One stripe's footer and bytes: spans of neighbouring selected streams, each one array, read in
   * units of at most {@link #READ_UNIT_BYTES}. Layout fields are written once, before {@code
   * footer} is set; all fields but {@code pendingRanges} are guarded by this.
   */
  private static final class Entry {
    /** Guarded by the enclosing {@link StripeBuffers} (not expressible here). */
    int pendingRanges;

    @GuardedBy("this")
    OrcProto.StripeFooter footer;

    @GuardedBy("this")
    long[] spanStarts;

    @GuardedBy("this")
    int[] spanLengths;

    /** A span's array, allocated by its first unit's load. */
    @GuardedBy("this")
    byte[][] spanData;

    /** The ledger each allocated span counts in, until {@link #release}. */
    @GuardedBy("this")
    MemoryLedger[] spanLedgers;

    @GuardedBy("this")
    long[] unitStarts;

    @GuardedBy("this")
    int[] unitLengths;

    @GuardedBy("this")
    int[] unitSpan;

    @GuardedBy("this")
    boolean[] loaded;

    @GuardedBy("this")
    boolean[] loading;

    Entry(int pendingRanges) {
      this.pendingRanges = pendingRanges;
    }

    /**
     * Lays out the selected columns' streams (index and data; not bloom filters, which only a
     * predicate reads): neighbouring streams merge into one span across gaps under {@link
     * #MAX_GAP_BYTES}, and each span is cut into equal units of at most {@link #READ_UNIT_BYTES}. A
     * stream never crosses spans, so every range orc-core asks for (a part of one stream) is a
     * slice of one array.
     */
    @GuardedBy("this")
    void layOut(OrcProto.StripeFooter footer, StripeInformation stripe, boolean[] include) {
      List<long[]> spans = new ArrayList<>();
      long position = stripe.getOffset();
      long end = stripe.getOffset() + stripe.getIndexLength() + stripe.getDataLength();
      for (OrcProto.Stream stream : footer.getStreamsList()) {
        long from = position;
        position += stream.getLength();
        boolean bloom =
            stream.getKind() == OrcProto.Stream.Kind.BLOOM_FILTER
                || stream.getKind() == OrcProto.Stream.Kind.BLOOM_FILTER_UTF8;
        int column = stream.getColumn();
        if (bloom
            || stream.getLength() == 0
            || column >= include.length
            || !include[column]
            || position > end) {
          continue;
        }
        long[] lastSpan = spans.isEmpty() ? null : spans.get(spans.size() - 1);
        if (lastSpan != null
            && from - lastSpan[1] <= MAX_GAP_BYTES
            && position - lastSpan[0] <= Integer.MAX_VALUE - 8) {
          lastSpan[1] = position;
        } else {
          spans.add(new long[] {from, position});
        }
      }
      List<long[]> units = new ArrayList<>();
      spanStarts = new long[spans.size()];
      spanLengths = new int[spans.size()];
      for (int i = 0; i < spans.size(); i++) {
        long[] span = spans.get(i);
        long bytes = span[1] - span[0];
        spanStarts[i] = span[0];
        spanLengths[i] = Math.toIntExact(bytes);
        long parts = (bytes + READ_UNIT_BYTES - 1) / READ_UNIT_BYTES;
        for (long p = 0; p < parts; p++) {
          units.add(new long[] {span[0] + bytes * p / parts, span[0] + bytes * (p + 1) / parts, i});
        }
      }
      int count = units.size();
      unitStarts = new long[count];
      unitLengths = new int[count];
      unitSpan = new int[count];
      for (int i = 0; i < count; i++) {
        long[] unit = units.get(i);
        unitStarts[i] = unit[0];
        unitLengths[i] = (int) (unit[1] - unit[0]);
        unitSpan[i] = (int) unit[2];
      }
      spanData = new byte[spans.size()][];
      spanLedgers = new MemoryLedger[spans.size()];
      loaded = new boolean[count];
      loading = new boolean[count];
      this.footer = footer;
    }

    /** The entry is dropped: its spans no longer count. */
    synchronized void release() {
      if (spanLedgers == null) {
        return; // never laid out
      }
      for (int span = 0; span < spanLedgers.length; span++) {
        if (spanLedgers[span] != null) {
          spanLedgers[span].release(spanLengths[span]);
          spanLedgers[span] = null;
        }
      }
    }

    /** The unit holding file position {@code position}, or -1. */
    @GuardedBy("this")
    int unitAt(long position) {
      int low = 0;
      int high = unitStarts.length - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        if (position < unitStarts[mid]) {
          high = mid - 1;
        } else if (position >= unitStarts[mid] + unitLengths[mid]) {
          low = mid + 1;
        } else {
          return mid;
        }
      }
      return -1;
    }

    /**
     * Makes units {@code [first, last]} (of one span) loaded, loading those nobody loads and
     * waiting for the rest; returns their span's array.
     */
    byte[] load(int first, int last, FSDataInputStream in, MemoryLedger ledger) throws IOException {
      int span;
      synchronized (this) {
        span = unitSpan[first];
      }
      while (true) {
        int claimed = -1;
        byte[] data;
        long unitStart;
        int unitLength;
        int into;
        synchronized (this) {
          boolean missing = false;
          for (int u = first; u <= last && claimed < 0; u++) {
            if (!loaded[u]) {
              missing = true;
              if (!loading[u]) {
                loading[u] = true;
                claimed = u;
              }
            }
          }
          if (!missing) {
            return spanData[span];
          }
          if (claimed < 0) {
            try {
              wait(); // every load ends with notifyAll, also a failed one
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new InterruptedIOException("interrupted while waiting for stripe bytes");
            }
            continue;
          }
          if (spanData[span] == null) {
            spanData[span] = new byte[spanLengths[span]];
            ledger.acquire(spanLengths[span]); // before the load: a read in flight counts
            spanLedgers[span] = ledger;
          }
          data = spanData[span];
          unitStart = unitStarts[claimed];
          unitLength = unitLengths[claimed];
          into = (int) (unitStart - spanStarts[span]);
        }
        // Units are disjoint parts of the array: concurrent loads write different elements, and
        // the monitor publishes them to every reader that sees the unit loaded.
        boolean ok = false;
        try {
          in.readFully(unitStart, data, into, unitLength);
          ok = true;
        } finally {
          synchronized (this) {
            loading[claimed] = false;
            loaded[claimed] = ok;
            notifyAll();
          }
        }
      }
    }
  }
}
