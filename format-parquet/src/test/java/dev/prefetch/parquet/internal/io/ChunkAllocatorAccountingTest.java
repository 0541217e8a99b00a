package dev.prefetch.parquet.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.testing.CountingLedger;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * The Parquet range reader's buffer pools report what they hold to the read's ledger: a column
 * chunk array from the moment it is lent (a read in flight) until it is dropped, free arrays while
 * kept, and they keep no more than the reader's share of the budget.
 */
class ChunkAllocatorAccountingTest {

  /** The length of a new pool array for {@code size} bytes: a sixteenth of headroom. */
  private static long lengthFor(int size) {
    return size + size / 16;
  }

  /** A ledger that counts, with a share of {@code share} bytes. */
  @Test
  void aChunkArrayCountsFromItsAllocationBeforeAnyByteIsRead() {
    CountingLedger ledger = new CountingLedger(1 << 20);
    ChunkAllocator pool = new ChunkAllocator(ledger, new ByteArrayPool(1 << 20, ledger));

    ByteBuffer buffer = pool.allocate(100_000);
    assertThat(ledger.held()).isEqualTo(lengthFor(100_000));

    pool.release(buffer); // kept free for the next row group: still held
    assertThat(ledger.held()).isEqualTo(lengthFor(100_000));
    ByteBuffer again = pool.allocate(50_000); // the same array, lent again: counted once
    assertThat(again.array()).isSameAs(buffer.array());
    assertThat(ledger.held()).isEqualTo(lengthFor(100_000));
  }

  @Test
  void freeArraysBeyondThePoolsBoundAreDroppedAndNoLongerCount() {
    CountingLedger ledger = new CountingLedger(200_000);
    ChunkAllocator pool = new ChunkAllocator(ledger, new ByteArrayPool(100_000, ledger));
    ByteBuffer first = pool.allocate(80_000);
    ByteBuffer second = pool.allocate(80_000);
    assertThat(ledger.held()).isEqualTo(2 * lengthFor(80_000));

    pool.release(first);
    pool.release(second); // over the pool's bound: left to the collector

    assertThat(ledger.held()).isEqualTo(lengthFor(80_000));
  }

  @Test
  void vectoredReadArraysCountUntilReclaimedOrForgotten() {
    CountingLedger ledger = new CountingLedger(1 << 20);
    ChunkAllocator pool = new ChunkAllocator(ledger, new ByteArrayPool(1 << 20, ledger));
    ByteBufferAllocator vectored = pool.forVectoredReads();
    vectored.allocate(10_000);
    vectored.allocate(20_000);
    assertThat(ledger.held()).isEqualTo(lengthFor(10_000) + lengthFor(20_000));

    pool.forget(); // a failed read: garbage once it lets go, and no longer the reader's
    assertThat(ledger.held()).isZero();

    vectored.allocate(5_000);
    pool.reclaim(); // back in the pool, free: still held
    assertThat(ledger.held()).isEqualTo(lengthFor(5_000));
  }

  @Test
  void aPoolKeepsAtMostItsBoundOfFreeArrays() {
    CountingLedger ledger = new CountingLedger(40_000);
    ByteArrayPool pages = new ByteArrayPool(10_000, ledger);
    byte[] a = pages.take(6_000);
    byte[] b = pages.take(6_000);
    assertThat(ledger.held()).as("lent pages are the borrower's").isZero();

    pages.give(a);
    pages.give(b); // 12,000 free would pass 10,000

    assertThat(ledger.held()).isEqualTo(lengthFor(6_000));
  }
}
