package dev.prefetch.parquet.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
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
 * <p>Ownership: an array is lent by {@link #allocate} and belongs to the row group's page store
 * until {@link #release}; by then no page refers to it (decoders copy values into the batch's own
 * arrays, and a range's pages are closed only when the next range starts or the reader closes).
 * Only arrays this pool lent are taken back. parquet-hadoop never releases the buffers of a
 * vectored read (object stores), so the pool remembers lent arrays weakly: an array nobody hands
 * back is garbage collected as if the pool did not exist. Thread-safe: a filesystem's vectored
 * read may allocate on its own threads.
 */
final class ChunkBuffers implements ByteBufferAllocator {

  /**
   * Free bytes kept at most: the read of one row group of the common 128 MiB. They are held while
   * the reader is open, outside the batch budget (as parquet-hadoop's own buffers always were).
   */
  private static final long MAX_FREE_BYTES = 128L << 20;
  private final List<byte[]> free = new ArrayList<>();
  /** Arrays lent and not yet released; weak, since some are never released (arrays compare by
   * identity, so a weak hash map keyed by them is an identity set). */
  private final Set<byte[]> lent = Collections.newSetFromMap(new WeakHashMap<>());
  private long freeBytes;

  /** A heap buffer of exactly {@code size} bytes (position 0, limit and capacity {@code size}). */
  @Override
  public synchronized ByteBuffer allocate(int size) {
    byte[] array = takeFree(size);
    if (array == null) {
      array = new byte[size];
    }
    lent.add(array);
    // A slice, so that a larger recycled array still reads exactly the requested bytes.
    return ByteBuffer.wrap(array, 0, size).slice();
  }

  /** The smallest free array of at least {@code size} bytes, removed from the free list. */
  private byte[] takeFree(int size) {
    int best = -1;
    for (int i = 0; i < free.size(); i++) {
      int length = free.get(i).length;
      if (length >= size && (best < 0 || length < free.get(best).length)) {
        best = i;
      }
    }
    if (best < 0) {
      return null;
    }
    byte[] array = free.remove(best);
    freeBytes -= array.length;
    return array;
  }

  @Override
  public synchronized void release(ByteBuffer buffer) {
    if (buffer == null || !buffer.hasArray()) {
      return;
    }
    byte[] array = buffer.array();
    if (lent.remove(array) && freeBytes + array.length <= MAX_FREE_BYTES) {
      free.add(array);
      freeBytes += array.length;
    }
  }

  @Override
  public boolean isDirect() {
    return false;
  }
}
