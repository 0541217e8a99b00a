package dev.prefetch.parquet.internal.io;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.MemoryLedger;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * The allocator parquet-hadoop reads column chunks into, keeping the heap arrays of a finished row
 * group for the next one.
 *
 * <p>parquet-hadoop reads a row group's chunks into freshly allocated buffers (8 MiB each by
 * default) and releases them when the row group's page store is closed. A fresh array is zeroed by
 * the JVM before the read overwrites it: for a scan that is a second pass over every byte of the
 * file, and on a busy heap, memory the caches have never seen. A range reader reads its row groups
 * one after another, so the arrays of the last one serve the next.
 *
 * <p>parquet-hadoop never releases the buffers of a vectored read (the read an object store gets).
 * Left to the collector, every range of a remote scan would allocate and zero its bytes afresh, and
 * each young collection would copy the buffers of the ranges still being decoded. So the stream
 * hands vectored reads the {@link #forVectoredReads()} view of this allocator, which remembers what
 * it lends, and the range reader reclaims those arrays once it has closed the page store that read
 * into them. Only those: parquet-hadoop keeps other buffers of this allocator past a row group (its
 * page checksum verifier holds one for the reader's lifetime and releases it on close), and
 * reclaiming one of them would lend it to the next chunk read while the verifier still writes pages
 * into it.
 *
 * <p>Ownership: an array belongs to the row group's page store (or to whichever part of
 * parquet-hadoop allocated it) until {@link #release}, or, for a vectored read's, until {@link
 * #reclaim}; by then no page refers to it (decoders copy values into the batch's own arrays, and a
 * range's pages are closed only when the next range starts or the reader closes), and no read
 * writes into it (parquet-hadoop has waited for every vectored range before it returns a page
 * store). A read that failed may still have ranges in flight, so its arrays are {@link #forget
 * forgotten}, never reused. The arrays come from the read's {@link ByteArrayPool}, which takes back
 * only what it lent, and which the next file's reader borrows from in turn. Thread-safe: a
 * filesystem's vectored read may allocate on its own threads.
 *
 * <p>Memory: every array counts in the reader's {@link MemoryLedger} from the moment it is lent
 * (before the read fills it: a chunk read in flight counts) until it is released or forgotten;
 * while the pool keeps it free, it counts in the read's budget through the pool's own ledger.
 */
public final class ChunkAllocator implements ByteBufferAllocator {

  private final ByteArrayPool arrays;
  private final MemoryLedger ledger;

  /** Vectored reads' arrays lent since the last reclaim or forget. */
  @GuardedBy("this")
  private final Set<byte[]> unreleased = Collections.newSetFromMap(new IdentityHashMap<>());

  private final ByteBufferAllocator vectoredReads = new VectoredReads(false);

  /** Arrays lent to a read ahead of the next row group, not yet that row group's. */
  @GuardedBy("this")
  private final Set<byte[]> readAhead = Collections.newSetFromMap(new IdentityHashMap<>());

  private final ByteBufferAllocator readAheadReads = new VectoredReads(true);

  ChunkAllocator() {
    this(MemoryLedger.NONE, new ByteArrayPool());
  }

  /**
   * Buffers from the read's {@code arrays}, whose arrays lent are reported to the reader's {@code
   * ledger} (the pool reports the ones it keeps free).
   */
  public ChunkAllocator(MemoryLedger ledger, ByteArrayPool arrays) {
    this.ledger = ledger;
    this.arrays = arrays;
  }

  /** A heap buffer of exactly {@code size} bytes (position 0, limit and capacity {@code size}). */
  @Override
  public ByteBuffer allocate(int size) {
    byte[] array = arrays.take(size);
    ledger.acquire(array.length); // before the read fills it
    // A slice, so that a larger recycled array still reads exactly the requested bytes.
    return ByteBuffer.wrap(array, 0, size).slice();
  }

  /**
   * This allocator as vectored reads should get it: what it lends is taken back by the next {@link
   * #reclaim}, since parquet-hadoop never releases it.
   */
  ByteBufferAllocator forVectoredReads() {
    return vectoredReads;
  }

  @Override
  public void release(ByteBuffer buffer) {
    if (buffer != null && buffer.hasArray()) {
      synchronized (this) {
        unreleased.remove(buffer.array());
      }
      ledger.release(buffer.array().length);
      arrays.give(buffer.array());
    }
  }

  /**
   * This allocator as the read ahead of the next row group should get it: what it lends is that row
   * group's, so the {@link #reclaim} after the current one leaves it alone; {@link #adoptReadAhead}
   * makes it the row group's once it is read, {@link #forgetReadAhead} drops it.
   */
  public ByteBufferAllocator forReadAhead() {
    return readAheadReads;
  }

  /** The row group read ahead is being read now: its arrays go with the next {@link #reclaim}. */
  public synchronized void adoptReadAhead() {
    unreleased.addAll(readAhead);
    readAhead.clear();
  }

  /**
   * Drops the arrays of a read ahead that will not be used, for good: its reads may still be in
   * flight into them.
   */
  public synchronized void forgetReadAhead() {
    for (byte[] array : readAhead) {
      ledger.release(array.length);
    }
    readAhead.clear();
  }

  /**
   * Takes back every array lent to vectored reads and not released since the last call: the caller
   * has closed the page store whose reads they served, and those reads all completed.
   */
  public void reclaim() {
    byte[][] lent;
    synchronized (this) {
      lent = unreleased.toArray(new byte[0][]);
      unreleased.clear();
    }
    for (byte[] array : lent) {
      ledger.release(array.length);
      arrays.give(array);
    }
  }

  /**
   * Drops every array lent to vectored reads and not released, for good: a failed read may still
   * write into it.
   */
  public synchronized void forget() {
    for (byte[] array : unreleased) {
      ledger.release(array.length); // garbage once the failed read lets go of it
    }
    unreleased.clear();
    forgetReadAhead();
  }

  @Override
  public boolean isDirect() {
    return false;
  }

  /** The views vectored reads allocate through; see {@link #forVectoredReads()}. */
  private final class VectoredReads implements ByteBufferAllocator {
    private final boolean ahead;

    VectoredReads(boolean ahead) {
      this.ahead = ahead;
    }

    @Override
    public ByteBuffer allocate(int size) {
      ByteBuffer buffer = ChunkAllocator.this.allocate(size);
      synchronized (ChunkAllocator.this) {
        (ahead ? readAhead : unreleased).add(buffer.array());
      }
      return buffer;
    }

    @Override
    public void release(ByteBuffer buffer) {
      ChunkAllocator.this.release(buffer);
    }

    @Override
    public boolean isDirect() {
      return false;
    }
  }
}
