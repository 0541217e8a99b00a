package dev.prefetch.orc.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.DataFile;
import dev.prefetch.orc.internal.stripe.StripeEntries;
import dev.prefetch.orc.internal.stripe.VectoredRead;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;

/**
 * One stripe's footer and bytes in {@link StripeBuffers} (which explains the sharing): spans of
 * neighbouring selected streams, each one array, read in units of at most {@link
 * StripeBuffers#unitBytes}. Layout fields are written once, before {@code footer} is set; all
 * fields are guarded by this.
 */
final class SharedStripe implements StripeEntries.Held {
  /** Guarded by the {@link StripeBuffers} that holds it (not expressible here). */
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

  private final DataFile file;
  private final boolean together;

  SharedStripe(DataFile file, boolean together) {
    this.file = file;
    this.together = together;
  }

  /**
   * Lays out the selected columns' streams (index and data; not bloom filters, which only a
   * predicate reads): neighbouring streams merge into one span across gaps under {@link
   * #MAX_GAP_BYTES}, and each span is cut into equal units of at most {@link
   * StripeBuffers#unitBytes}. A stream never crosses spans, so every range orc-core asks for (a
   * part of one stream) is a slice of one array.
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
          && from - lastSpan[1] <= StripeBuffers.MAX_GAP_BYTES
          && position - lastSpan[0] <= Integer.MAX_VALUE - 8) {
        lastSpan[1] = position;
      } else {
        spans.add(new long[] {from, position});
      }
    }
    long selected = 0;
    for (long[] span : spans) {
      selected += span[1] - span[0];
    }
    int unitBytes = StripeBuffers.unitBytes(selected, together);
    List<long[]> units = new ArrayList<>();
    spanStarts = new long[spans.size()];
    spanLengths = new int[spans.size()];
    for (int i = 0; i < spans.size(); i++) {
      long[] span = spans.get(i);
      long bytes = span[1] - span[0];
      spanStarts[i] = span[0];
      spanLengths[i] = Math.toIntExact(bytes);
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
    this.footer = footer;
  }

  /** The entry is dropped: its spans no longer count. */
  @Override
  public synchronized void release() {
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
   * Makes units {@code [first, last]} (of one span) loaded, loading those nobody loads (with {@code
   * together}, every unit of the stripe nobody loads) and waiting for the rest; returns their
   * span's array.
   */
  byte[] load(int first, int last, FSDataInputStream in, MemoryLedger ledger) throws IOException {
    int span;
    synchronized (this) {
      span = unitSpan[first];
    }
    while (true) {
      List<Integer> claimed = new ArrayList<>();
      List<VectoredRead.Region> regions = new ArrayList<>();
      synchronized (this) {
        boolean missing = false;
        for (int u = first; u <= last; u++) {
          missing |= !loaded[u];
        }
        if (!missing) {
          return spanData[span];
        }
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

  /** Where unit {@code u} goes, allocating its span's array (counted in {@code ledger}). */
  @GuardedBy("this")
  private VectoredRead.Region region(int u, MemoryLedger ledger) {
    int span = unitSpan[u];
    if (spanData[span] == null) {
      spanData[span] = new byte[spanLengths[span]];
      ledger.acquire(spanLengths[span]); // before the load: a read in flight counts
      spanLedgers[span] = ledger;
    }
    return new VectoredRead.Region(
        unitStarts[u], spanData[span], (int) (unitStarts[u] - spanStarts[span]), unitLengths[u]);
  }
}
