package dev.prefetch.orc.internal.stripe;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.DataFile;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Byte ranges of one stripe that a plan's range readers need, read from storage once and shared by
 * all of them.
 *
 * <h2>Layout</h2>
 *
 * The ranges asked for (streams, or the parts of streams that the read's row groups need) are
 * merged into spans: on remote storage across gaps of at most {@link #MAX_GAP_BYTES} (reading a
 * small gap beats a second request), on local files only where they touch (a local read costs no
 * latency, so a gap read is only waste); each span is one array, allocated at its first load, and
 * is read in units of at most {@link #unitBytes} bytes. A range asked for never crosses spans, so
 * every stream part is a slice of one array.
 *
 * <h2>Threads</h2>
 *
 * Every producer of the plan calls in concurrently; the layout is immutable, the rest is guarded by
 * this object's monitor. A reader that needs bytes claims the units nobody loads yet and reads them
 * through its own stream outside the lock, then waits (on the monitor) for the units others are
 * loading: each unit is read once. On remote storage ({@code together}) the first reader that needs
 * any byte claims every unit and issues them as one vectored read ({@link VectoredRead}), so the
 * stripe's bytes cost one first-byte latency, and the other producers wait for that read; on local
 * files a reader claims the units it needs, one at a time, so producers entering the stripe
 * together read its units side by side. A failed load (an I/O error, or an interrupt when the read
 * is closed) gives its units back unclaimed and wakes the waiters, so nobody waits for a load that
 * no longer runs: a waiter loads the unit itself, or is interrupted too. The failure of a load is
 * raised by a reader that needs its bytes: the one that loaded them, or for a read issued ahead
 * ({@link #readAhead}) the ones that waited for it, so that it fails the range the bytes are for
 * rather than being hidden by a second read that succeeds. A unit's bytes are never written after
 * its load, and the monitor publishes them to every reader that sees the unit loaded.
 *
 * <h2>Memory</h2>
 *
 * A span's array counts in the ledger of the range reader whose load allocated it, from its
 * allocation (before any unit is read into it) until {@link #release()}. A reader closed before
 * then stops counting it (the runtime closes its ledger), while the array lives until the stripe is
 * dropped.
 */
public final class StripeBytes {

  /** Largest read: small enough for producers to share a stripe's reads, one call each. */
  public static final int READ_UNIT_BYTES = 8 << 20;

  /**
   * Requests a stripe's vectored read aims at: what an object store client keeps in flight for one
   * vectored read (S3A's default is 4 ranged reads at once, the benchmarks' simulated store 8).
   */
  public static final int VECTORED_PARTS = 8;

  /**
   * Smallest unit of a vectored read: at 64 MiB/s and 20 ms to the first byte, 1 MiB transfers in
   * about the time a request waits, so smaller requests would mostly wait.
   */
  public static final int MIN_VECTORED_UNIT_BYTES = 1 << 20;

  /** Gap between two byte ranges below which reading it beats a second request. */
  public static final long MAX_GAP_BYTES = 256 << 10;

  /** The most bytes one span holds: one array. */
  private static final long MAX_SPAN_BYTES = Integer.MAX_VALUE - 8;

  /** A span's bytes as an array and where a byte asked for lies in it. */
  public record Window(byte[] array, int offset) {}

  private final DataFile file;
  private final boolean together;

  private final long[] spanStarts;
  private final int[] spanLengths;
  private final long[] unitStarts;
  private final int[] unitLengths;
  private final int[] unitSpan;

  @GuardedBy("this")
  private final byte[][] spanData;

  /** The ledger each allocated span counts in, until {@link #release}. */
  @GuardedBy("this")
  private final MemoryLedger[] spanLedgers;

  @GuardedBy("this")
  private final boolean[] loaded;

  @GuardedBy("this")
  private final boolean[] loading;

  /** For a unit being loaded by a read issued ahead (asynchronously), that read; else null. */
  @GuardedBy("this")
  private final VectoredRead.Issued[] ahead;

  @GuardedBy("this")
  private boolean released;

  /**
   * @param file the file, for messages
   * @param starts the first file offset of each range needed, ascending
   * @param ends the end of each range (exclusive), in the same order; ranges may overlap
   * @param together whether to read all units in one vectored read (remote storage) rather than
   *     each on demand (local files)
   */
  public StripeBytes(DataFile file, long[] starts, long[] ends, boolean together) {
    if (starts.length != ends.length) {
      throw new IllegalArgumentException(starts.length + " starts but " + ends.length + " ends");
    }
    this.file = file;
    this.together = together;
    List<long[]> spans = new ArrayList<>();
    for (int i = 0; i < starts.length; i++) {
      long from = starts[i];
      long to = ends[i];
      if (to <= from) {
        continue;
      }
      long[] last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
      if (from < (last == null ? Long.MIN_VALUE : last[0])) {
        throw new IllegalArgumentException("ranges are not in ascending order at " + from);
      }
      if (last != null
          && from - last[1] <= (together ? MAX_GAP_BYTES : 0)
          && Math.max(last[1], to) - last[0] <= MAX_SPAN_BYTES) {
        last[1] = Math.max(last[1], to);
      } else {
        if (to - from > MAX_SPAN_BYTES) {
          throw new IllegalArgumentException("a range of " + (to - from) + " bytes");
        }
        spans.add(new long[] {from, to});
      }
    }
    long selected = 0;
    for (long[] span : spans) {
      selected += span[1] - span[0];
    }
    int unitBytes = unitBytes(selected, together);
    List<long[]> units = new ArrayList<>();
    spanStarts = new long[spans.size()];
    spanLengths = new int[spans.size()];
    for (int i = 0; i < spans.size(); i++) {
      long[] span = spans.get(i);
      long bytes = span[1] - span[0];
      spanStarts[i] = span[0];
      spanLengths[i] = (int) bytes;
      long parts = (bytes + unitBytes - 1) / unitBytes;
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
    ahead = new VectoredRead.Issued[count];
  }

  /**
   * The largest unit of a stripe whose needed bytes are {@code selectedBytes}: {@link
   * #READ_UNIT_BYTES} on local files; on remote storage small enough for the stripe to fill {@link
   * #VECTORED_PARTS} requests, down to {@link #MIN_VECTORED_UNIT_BYTES}.
   */
  public static int unitBytes(long selectedBytes, boolean together) {
    if (!together) {
      return READ_UNIT_BYTES;
    }
    long share = (selectedBytes + VECTORED_PARTS - 1) / VECTORED_PARTS;
    return (int) Math.max(MIN_VECTORED_UNIT_BYTES, Math.min(READ_UNIT_BYTES, share));
  }

  /** Bytes of all spans (what the stripe's needed ranges take once their gaps are joined). */
  public long spanBytes() {
    long total = 0;
    for (int length : spanLengths) {
      total += length;
    }
    return total;
  }

  /** Units, for tests: the requests a reader issues locally. */
  int units() {
    return unitStarts.length;
  }

  /**
   * The bytes {@code [from, to)}, which lie inside one of the ranges asked for: loaded through
   * {@code in} where nobody loaded them yet (with {@code together}, every unit of the stripe nobody
   * loads), waiting for the loads of others.
   *
   * @throws IllegalArgumentException when the bytes lie outside every span
   */
  public Window window(long from, long to, FSDataInputStream in, MemoryLedger ledger)
      throws IOException {
    int first = unitAt(from);
    int last = to > from ? unitAt(to - 1) : first;
    if (first < 0 || last < 0 || unitSpan[first] != unitSpan[last]) {
      throw new IllegalArgumentException(
          "bytes [" + from + ", " + to + ") of " + file + " are not a part of one span");
    }
    int span = unitSpan[first];
    byte[] data = load(first, last, in, ledger);
    return new Window(data, (int) (from - spanStarts[span]));
  }

  /** The unit holding file position {@code position}, or -1. */
  private int unitAt(long position) {
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
   * Issues the read of every unit nobody loads yet, as one vectored read, without waiting for it
   * (remote storage: the bytes arrive while the reader decodes what it has). A reader that needs
   * those units later waits for that read ({@link #window}); if it fails, that reader raises the
   * failure and the units are given back, for a later reader to read again.
   */
  public void readAhead(FSDataInputStream in, MemoryLedger ledger) throws IOException {
    List<Integer> claimed = new ArrayList<>();
    List<VectoredRead.Region> regions = new ArrayList<>();
    synchronized (this) {
      for (int u = 0; u < unitStarts.length; u++) {
        if (!loaded[u] && !loading[u]) {
          loading[u] = true;
          claimed.add(u);
          regions.add(region(u, ledger));
        }
      }
    }
    if (claimed.isEmpty()) {
      return;
    }
    VectoredRead.Issued issued = null;
    try {
      issued = VectoredRead.issue(in, regions, file, ledger);
    } finally {
      synchronized (this) {
        for (int u : claimed) {
          if (issued == null) {
            loading[u] = false; // not issued: the units are free again
          } else {
            ahead[u] = issued;
          }
        }
        notifyAll();
      }
    }
  }

  /**
   * Makes units {@code [first, last]} (of one span) loaded, loading those nobody loads (with {@code
   * together}, every unit nobody loads) and waiting for the rest; returns their span's array.
   */
  private byte[] load(int first, int last, FSDataInputStream in, MemoryLedger ledger)
      throws IOException {
    int span = unitSpan[first];
    while (true) {
      List<Integer> claimed = new ArrayList<>();
      List<VectoredRead.Region> regions = new ArrayList<>();
      VectoredRead.Issued pending = null;
      synchronized (this) {
        boolean missing = false;
        for (int u = first; u <= last; u++) {
          missing |= !loaded[u];
          if (!loaded[u] && pending == null) {
            pending = ahead[u];
          }
        }
        if (!missing) {
          return spanData[span];
        }
        if (pending == null) {
          int from = together ? 0 : first;
          int to = together ? unitStarts.length - 1 : last;
          for (int u = from; u <= to && (together || claimed.isEmpty()); u++) {
            if (!loaded[u] && !loading[u]) {
              loading[u] = true;
              claimed.add(u);
              regions.add(region(u, ledger));
            }
          }
          if (claimed.isEmpty()) {
            try {
              wait(); // every load ends with notifyAll, also a failed one
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new InterruptedIOException(
                  "interrupted while waiting for stripe bytes of " + file);
            }
            continue;
          }
        }
      }
      if (pending != null) {
        finish(pending);
        continue;
      }
      // Units are disjoint parts of the arrays: concurrent loads write different elements, and
      // the monitor publishes them to every reader that sees the unit loaded.
      boolean ok = false;
      try {
        VectoredRead.read(in, regions, file, ledger);
        ok = true;
      } finally {
        synchronized (this) {
          for (int u : claimed) {
            loading[u] = false;
            loaded[u] = ok;
          }
          notifyAll();
        }
      }
    }
  }

  /**
   * Waits for a read issued ahead and marks its units loaded. A failed one gives its units back and
   * raises its failure here, in the reader that needs the bytes (so the failure is reported with
   * the range the bytes are for, not lost to a second read that succeeds); a reader that needs them
   * later reads them again. An interrupt leaves the read pending for others.
   */
  private void finish(VectoredRead.Issued pending) throws IOException {
    IOException failure = null;
    try {
      pending.await();
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      failure = e; // every waiter of this read gets it: Issued keeps the outcome
    }
    synchronized (this) {
      for (int u = 0; u < ahead.length; u++) {
        if (ahead[u] == pending) {
          ahead[u] = null;
          loading[u] = false;
          loaded[u] = failure == null;
        }
      }
      notifyAll();
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Where unit {@code u} goes, allocating its span's array (counted in {@code ledger}). */
  @GuardedBy("this")
  private VectoredRead.Region region(int u, MemoryLedger ledger) {
    int span = unitSpan[u];
    if (spanData[span] == null) {
      spanData[span] = new byte[spanLengths[span]];
      if (released) {
        spanLedgers[span] = MemoryLedger.NONE; // dropped already: a late load counts nowhere
      } else {
        ledger.acquire(spanLengths[span]); // before the load: a read in flight counts
        spanLedgers[span] = ledger;
      }
    }
    return new VectoredRead.Region(
        unitStarts[u], spanData[span], (int) (unitStarts[u] - spanStarts[span]), unitLengths[u]);
  }

  /** The stripe is dropped: its spans no longer count (readers still holding slices keep them). */
  public synchronized void release() {
    released = true;
    for (int span = 0; span < spanLedgers.length; span++) {
      if (spanLedgers[span] != null) {
        spanLedgers[span].release(spanLengths[span]);
        spanLedgers[span] = null;
      }
    }
  }

  @Override
  public synchronized String toString() {
    return "StripeBytes["
        + spanStarts.length
        + " spans, "
        + unitStarts.length
        + " units, loaded "
        + Arrays.toString(loaded)
        + "]";
  }
}
