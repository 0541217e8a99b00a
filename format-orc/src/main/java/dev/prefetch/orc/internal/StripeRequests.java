package dev.prefetch.orc.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.DataFile;
import dev.prefetch.orc.internal.stripe.StripeEntries;
import dev.prefetch.orc.internal.stripe.VectoredRead;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;

/**
 * The bytes range readers read for the stripes a plan reads in part or under a predicate, kept per
 * stripe so that the plan's other range readers of that stripe take them instead of reading them
 * again.
 *
 * <p>Why: such a stripe is not laid out whole ({@link StripeBuffers}): orc-core reads only the row
 * groups its predicate keeps, from where its record reader starts to the stripe's end ({@link
 * StrideWindowRecordReader}). Several producers enter the stripe at different ranges, and each
 * asked storage for the same streams again: with 8 producers, a scan of one-stride ranges under a
 * predicate read the file 4.6 times in 168 requests where one producer needed 17. Now every range
 * reader of such a stripe opens its record reader at the plan's first stride of the stripe and
 * seeks to its range ({@link OrcFilePlan#windowStart}); all keep the same row groups (one
 * predicate, one row index), so all ask for the same bytes. The stripe footer is read once; each
 * chunk orc-core asks for is taken from the kept reads when it lies inside one, and only the rest
 * is read, and kept.
 *
 * <h2>Threads</h2>
 *
 * Every producer of the plan calls in concurrently. {@link #entries} guards the entries and their
 * counts of ranges left ({@link StripeEntries}); an entry's footer and loads by the entry's
 * monitor. A reader holds the entry's {@code reading} lock from its first look-up to the end of its
 * read ({@link #lock}, {@link #keep}, {@link #unlock}): the producers of one stripe so wait for one
 * read instead of each reading, and the reader after it finds the bytes kept. A load's bytes are
 * written before {@link #keep} adds it under the monitor, which publishes them. The lock is taken
 * interruptibly, so a waiting producer stops when its read is closed; a failed read keeps nothing.
 *
 * <h2>Lifetime and memory</h2>
 *
 * As in {@link StripeBuffers}: an entry counts the plan's ranges of its stripe not yet finished and
 * is dropped with the last one ({@link #clear()} drops the rest). A kept load's array counts in the
 * ledger of the reader that allocated it until the entry is dropped.
 */
final class StripeRequests {

  private final DataFile file;

  /** Per stripe whose reads are kept (the plan's ranges of it are not 0): its entry. */
  private final StripeEntries<Entry> entries;

  /**
   * @param file the file, for messages
   * @param rangesPerStripe the plan's ranges of each stripe whose reads are kept, else 0
   */
  StripeRequests(DataFile file, int[] rangesPerStripe) {
    this.file = file;
    this.entries = new StripeEntries<>(rangesPerStripe);
  }

  /** Whether stripe {@code stripe}'s reads are kept here. */
  boolean shares(int stripe) {
    return entries.shares(stripe);
  }

  /**
   * The stripe's footer, read and parsed by {@code reader} if no producer did yet (under the
   * entry's monitor: the others wait for that one read).
   */
  OrcProto.StripeFooter footer(
      int stripe, StripeInformation info, StripeBuffers.FooterReader reader) throws IOException {
    Entry entry = entry(stripe);
    synchronized (entry) {
      if (entry.footer == null) {
        entry.footer = reader.read(info);
      }
      return entry.footer;
    }
  }

  /**
   * Takes the stripe's reading lock, waiting for the reader that holds it; returns the token for
   * {@link #cached}, {@link #keep} and {@link #unlock}.
   */
  Object lock(int stripe) throws InterruptedIOException {
    Entry entry = entry(stripe);
    try {
      entry.reading.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for stripe bytes of " + file);
    }
    return entry;
  }

  /** Gives the stripe's reading lock back. */
  void unlock(Object token) {
    ((Entry) token).reading.unlock();
  }

  /** The stripe's bytes {@code [offset, offset + length)} if a reader kept them, else null. */
  ByteBuffer cached(Object token, long offset, int length) {
    Entry entry = (Entry) token;
    synchronized (entry) {
      for (Load load : entry.loads) {
        if (load.start <= offset && offset + length <= load.start + load.data.length) {
          return ByteBuffer.wrap(load.data, (int) (offset - load.start), length).slice();
        }
      }
      return null;
    }
  }

  /**
   * Keeps reads just done (each region an array of its own from offset 0, counted in {@code
   * ledger}): from now on they count until the stripe is dropped (at once if it is dropped).
   */
  void keep(Object token, List<VectoredRead.Region> regions, MemoryLedger ledger) {
    Entry entry = (Entry) token;
    synchronized (entry) {
      for (VectoredRead.Region region : regions) {
        if (entry.dropped) {
          ledger.release(region.length());
        } else {
          entry.loads.add(new Load(region.position(), region.array(), ledger));
        }
      }
    }
  }

  /** Notes that one of the plan's ranges of {@code stripe} is read; the last one drops it. */
  void rangeDone(int stripe) {
    entries.rangeDone(stripe);
  }

  /** Drops every stripe held. */
  void clear() {
    entries.clear();
  }

  private Entry entry(int stripe) {
    return entries.get(stripe, Entry::new, "does not keep its reads");
  }

  /** One read request's bytes, and the ledger they count in. */
  private record Load(long start, byte[] data, MemoryLedger ledger) {}

  /** One stripe's footer and kept reads. */
  private static final class Entry implements StripeEntries.Held {
    final ReentrantLock reading = new ReentrantLock();

    @GuardedBy("this")
    OrcProto.StripeFooter footer;

    @GuardedBy("this")
    final List<Load> loads = new ArrayList<>();

    /** Whether the stripe was dropped: a read ending later keeps nothing. */
    @GuardedBy("this")
    boolean dropped;

    /** The entry is dropped: its loads no longer count. */
    @Override
    public synchronized void release() {
      dropped = true;
      for (Load load : loads) {
        load.ledger().release(load.data().length);
      }
      loads.clear();
    }
  }
}
