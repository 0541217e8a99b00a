package dev.prefetch.parquet.internal;

import dev.prefetch.parquet.internal.bulk.PageBuffers;
import java.nio.ByteBuffer;
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
 * <p>Ownership: an array belongs to the row group's page store until {@link #release}; by then no
 * page refers to it (decoders copy values into the batch's own arrays, and a range's pages are
 * closed only when the next range starts or the reader closes). The arrays come from a
 * {@link PageBuffers} pool, which takes back only what it lent and forgets, weakly, what is never
 * released (parquet-hadoop never releases the buffers of a vectored read). Thread-safe.
 */
final class ChunkBuffers implements ByteBufferAllocator {

  /**
   * Free bytes kept at most: the read of one row group of the common 128 MiB. They are held while
   * the reader is open, outside the batch budget (as parquet-hadoop's own buffers always were).
   */
  private static final long MAX_FREE_BYTES = 128L << 20;

  private final PageBuffers arrays = new PageBuffers(MAX_FREE_BYTES);

  /** A heap buffer of exactly {@code size} bytes (position 0, limit and capacity {@code size}). */
  @Override
  public ByteBuffer allocate(int size) {
    // A slice, so that a larger recycled array still reads exactly the requested bytes.
    return ByteBuffer.wrap(arrays.take(size), 0, size).slice();
  }

  @Override
  public void release(ByteBuffer buffer) {
    if (buffer != null && buffer.hasArray()) {
      arrays.give(buffer.array());
    }
  }

  @Override
  public boolean isDirect() {
    return false;
  }
}
