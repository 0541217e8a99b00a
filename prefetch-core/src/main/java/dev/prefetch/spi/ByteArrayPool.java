package dev.prefetch.spi;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Byte arrays lent out and taken back for reuse, so that a scan does not allocate (and zero) a
 * fresh array for every decompressed page, compression block or column chunk it reads. The runtime
 * makes one per read and hands it to every range reader ({@link ReaderContext#buffers()}), so the
 * arrays one file's reader gave back serve the next file's: over a stream of many small files,
 * every file would otherwise allocate its buffers anew.
 *
 * <p>Ownership: the pool lends an array ({@link #take}); it then belongs to the borrower (a page, a
 * block, a chunk buffer) until given back ({@link #give}), and the borrower must not touch it after
 * that. Only arrays the pool lent are taken back, so a slice of a larger buffer handed to {@link
 * #give} is ignored. An array that is never given back (a range closed mid-page, a failed read's
 * buffer) is left to the garbage collector: the pool remembers what it lent only weakly.
 *
 * <p>Memory: the free arrays the pool keeps are reported to its {@link MemoryLedger} (an array
 * counts from the moment the pool keeps it until it lends it again), and it keeps at most {@code
 * maxFreeBytes} of them, so that what it keeps for reuse never fills the budget queued batches
 * need. Arrays lent are the borrower's to report.
 *
 * <p>Thread-safe: the producers of a read, and a filesystem's vectored read on its own threads,
 * take and give concurrently; every method holds the lock for a short scan of the free list.
 */
public final class ByteArrayPool {

  /**
   * Free bytes a pool keeps by default (a reader with no budget, the single path): the column
   * chunks of one row group of the common 128 MiB and a few pages of each of a few dozen columns.
   */
  public static final long DEFAULT_MAX_FREE_BYTES = 192L << 20;

  /** Largest array a JVM reliably allocates. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  /** The free arrays, which every view of this pool shares. */
  private final FreeArrays free;

  /**
   * Arrays this view lent and was not yet given back; weak, since some never are (arrays compare by
   * identity, so a weak hash map keyed by them is an identity set).
   */
  @GuardedBy("this")
  private final Set<byte[]> lent = Collections.newSetFromMap(new WeakHashMap<>());

  /** A pool of one reader's own (a tool, a test), keeping the default and reporting nowhere. */
  public ByteArrayPool() {
    this(DEFAULT_MAX_FREE_BYTES, MemoryLedger.NONE);
  }

  /** A pool that keeps at most {@code maxFreeBytes} of free arrays, reported to {@code ledger}. */
  public ByteArrayPool(long maxFreeBytes, MemoryLedger ledger) {
    this(new FreeArrays(maxFreeBytes, ledger));
  }

  private ByteArrayPool(FreeArrays free) {
    this.free = free;
  }

  /**
   * A view of this pool that shares its free arrays and takes back only what it lent itself. A
   * borrower whose arrays may alias another's (a page that is a slice of a column chunk's buffer,
   * both from the read's pool) takes each kind from a view of its own, so that handing back a page
   * never frees the chunk it points into.
   */
  public ByteArrayPool view() {
    return new ByteArrayPool(free);
  }

  /**
   * The smallest free array of at least {@code size} bytes, else a new one; contents unspecified.
   */
  public byte[] take(int size) {
    byte[] array = free.take(size);
    if (array == null) {
      array = new byte[headroom(size)];
    }
    synchronized (this) {
      lent.add(array);
    }
    return array;
  }

  /**
   * The length of a new array for {@code size} bytes: a sixteenth more, so that the next chunk's
   * page of the same column, a little longer (strings vary from row group to row group), still fits
   * the array this one gives back.
   */
  private static int headroom(int size) {
    return (int) Math.min(MAX_ARRAY_LENGTH, size + (size >>> 4));
  }

  /** Takes back {@code array} if this view lent it; ignores any other array. */
  public void give(byte[] array) {
    if (array == null) {
      return;
    }
    synchronized (this) {
      if (!lent.remove(array)) {
        return;
      }
    }
    free.keep(array);
  }

  /** The free arrays of a pool and its views, their bound and their ledger. */
  private static final class FreeArrays {
    private final long maxFreeBytes;
    private final MemoryLedger ledger;

    @GuardedBy("this")
    private final List<byte[]> arrays = new ArrayList<>();

    @GuardedBy("this")
    private long freeBytes;

    FreeArrays(long maxFreeBytes, MemoryLedger ledger) {
      this.maxFreeBytes = maxFreeBytes;
      this.ledger = Objects.requireNonNull(ledger, "ledger is null");
    }

    /** The smallest free array of at least {@code size} bytes, or null. */
    synchronized byte[] take(int size) {
      int best = -1;
      for (int i = 0; i < arrays.size(); i++) {
        int length = arrays.get(i).length;
        if (length >= size && (best < 0 || length < arrays.get(best).length)) {
          best = i;
        }
      }
      if (best < 0) {
        return null;
      }
      byte[] array = arrays.remove(best);
      freeBytes -= array.length;
      ledger.release(array.length);
      return array;
    }

    /** Keeps {@code array} free while the bound allows. */
    synchronized void keep(byte[] array) {
      if (freeBytes + array.length <= maxFreeBytes) {
        arrays.add(array);
        freeBytes += array.length;
        ledger.acquire(array.length);
      }
    }
  }
}
