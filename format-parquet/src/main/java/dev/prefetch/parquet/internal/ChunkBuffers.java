package dev.prefetch.parquet.internal;

import dev.prefetch.parquet.internal.bulk.PageBuffers;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * The allocator parquet-hadoop reads column chunks into, keeping the heap arrays of a finished
 * row group for the next one.
 *
 * <p>parquet-hadoop reads a row group's chunks into freshly allocated buffers (8 MiB each by
 * default) and releases them when the row group's page store is closed. A fresh array is zeroed
 * by the JVM before the read overwrites it: for a scan that is a second pass over every byte of
 * the file, and on a busy heap, memory the caches have never seen. A range reader reads its row
 * groups one after another, so the arrays of the last one serve the next.
 *
 * <p>parquet-hadoop never releases the buffers of a vectored read (the read an object store gets).
 * Left to the collector, every range of a remote scan would allocate and zero its bytes afresh,
 * and each young collection would copy the buffers of the ranges still being decoded. So the
 * arrays lent since the last {@link #reclaim} are remembered, and the range reader reclaims them
 * once it has closed the page store that read into them.
 *
 * <p>Ownership: an array belongs to the row group's page store until {@link #release} or
 * {@link #reclaim}; by then no page refers to it (decoders copy values into the batch's own
 * arrays, and a range's pages are closed only when the next range starts or the reader closes),
 * and no read writes into it (parquet-hadoop has waited for every vectored range before it
 * returns a page store). A read that failed may still have ranges in flight, so its arrays are
 * {@link #forget forgotten}, never reused. The arrays come from a {@link PageBuffers} pool, which
 * takes back only what it lent. Thread-safe: a filesystem's vectored read may allocate on its own
 * threads.
 */
final class ChunkBuffers implements ByteBufferAllocator {

  /**
   * Free bytes kept at most: the read of one row group of the common 128 MiB. They are held while
   * the reader is open, outside the batch budget (as parquet-hadoop's own buffers always were).
   */
  private static final long MAX_FREE_BYTES = 128L << 20;

  private final PageBuffers arrays = new PageBuffers(MAX_FREE_BYTES);
  /** Arrays lent and not released since the last reclaim or forget; guarded by this. */
  private final Set<byte[]> unreleased = Collections.newSetFromMap(new IdentityHashMap<>());

  /** A heap buffer of exactly {@code size} bytes (position 0, limit and capacity {@code size}). */
  @Override
  public ByteBuffer allocate(int size) {
    byte[] array = arrays.take(size);
    synchronized (this) {
      unreleased.add(array);
    }
    // A slice, so that a larger recycled array still reads exactly the requested bytes.
    return ByteBuffer.wrap(array, 0, size).slice();
  }

  @Override
  public void release(ByteBuffer buffer) {
    if (buffer != null && buffer.hasArray()) {
      synchronized (this) {
        unreleased.remove(buffer.array());
      }
      arrays.give(buffer.array());
    }
  }

  /**
   * Takes back every array lent and not released since the last call: the caller has closed the
   * page store whose reads they served, and those reads all completed.
   */
  void reclaim() {
    byte[][] lent;
    synchronized (this) {
      lent = unreleased.toArray(new byte[0][]);
      unreleased.clear();
    }
    for (byte[] array : lent) {
      arrays.give(array);
    }
  }

  /** Drops every array lent and not released, for good: a failed read may still write into it. */
  synchronized void forget() {
    unreleased.clear();
  }

  @Override
  public boolean isDirect() {
    return false;
  }
}
