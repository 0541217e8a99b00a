package dev.prefetch.orc.internal.io;

import dev.prefetch.spi.MemoryLedger;
import java.util.ArrayDeque;

/**
 * The arrays that compressed streams decompress into, lent and given back: each is {@link
 * #bufferBytes()} long (the file's compression block size plus {@link
 * StreamInput#MAX_CONTIGUOUS_BYTES}, the room a value that straddles two blocks is joined in), so
 * every stream of a file reuses the same size.
 *
 * <p>Memory: an array counts in the {@link MemoryLedger} from its allocation until it is dropped,
 * lent or free; the pool keeps at most {@code maxFreeBytes} of free arrays and drops (and releases)
 * the rest, and {@link #close()} drops all free ones. Lent arrays stay counted until given back.
 *
 * <p>Confined to the thread of the range reader that owns it.
 */
public final class BlockBuffers {

  private final int bufferBytes;
  private final MemoryLedger ledger;
  private final int maxFree;
  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  private int lent;

  /**
   * @param blockSize the file's compression block size (its postscript's), in (0, 2^23)
   * @param ledger where the arrays are counted
   * @param maxFreeBytes the most bytes of free arrays kept for reuse
   */
  public BlockBuffers(int blockSize, MemoryLedger ledger, long maxFreeBytes) {
    if (blockSize <= 0 || blockSize > DecompressionContext.MAX_BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "compression block size "
              + blockSize
              + " outside (0, "
              + DecompressionContext.MAX_BLOCK_SIZE
              + "]");
    }
    if (maxFreeBytes < 0) {
      throw new IllegalArgumentException("negative maxFreeBytes " + maxFreeBytes);
    }
    this.bufferBytes = blockSize + StreamInput.MAX_CONTIGUOUS_BYTES;
    this.ledger = java.util.Objects.requireNonNull(ledger, "ledger is null");
    this.maxFree = (int) Math.min(Integer.MAX_VALUE, maxFreeBytes / bufferBytes);
  }

  /** The length of every array lent. */
  public int bufferBytes() {
    return bufferBytes;
  }

  /** An array of {@link #bufferBytes()}: a free one, else a new one (counted). */
  byte[] take() {
    byte[] buffer = free.pollFirst();
    if (buffer == null) {
      ledger.acquire(bufferBytes);
      buffer = new byte[bufferBytes];
    }
    lent++;
    return buffer;
  }

  /** Gives back an array {@link #take()} lent; the lender no longer touches it. */
  void give(byte[] buffer) {
    if (buffer.length != bufferBytes) {
      throw new IllegalArgumentException(
          "an array of " + buffer.length + " bytes was not lent by this pool of " + bufferBytes);
    }
    lent--;
    if (free.size() < maxFree) {
      free.addFirst(buffer);
    } else {
      ledger.release(bufferBytes);
    }
  }

  /** Arrays lent and not given back. */
  public int lent() {
    return lent;
  }

  /** Free arrays kept for reuse. */
  public int free() {
    return free.size();
  }

  /** Drops the free arrays; lent ones are released as they come back. */
  public void close() {
    ledger.release((long) free.size() * bufferBytes);
    free.clear();
  }
}
