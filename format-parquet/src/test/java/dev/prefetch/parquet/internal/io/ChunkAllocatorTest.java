package dev.prefetch.parquet.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.junit.jupiter.api.Test;

class ChunkAllocatorTest {

  private final ChunkAllocator pool = new ChunkAllocator();
  private final ByteBufferAllocator vectored = pool.forVectoredReads();

  @Test
  void aBufferHoldsExactlyTheRequestedBytes() {
    ByteBuffer buffer = pool.allocate(1000);

    assertThat(buffer.position()).isZero();
    assertThat(buffer.limit()).isEqualTo(1000);
    assertThat(buffer.capacity()).isEqualTo(1000);
    assertThat(buffer.hasArray()).isTrue();
    assertThat(pool.isDirect()).isFalse();
  }

  @Test
  void aReleasedArrayServesTheNextRequestThatFits() {
    ByteBuffer first = pool.allocate(1000);
    byte[] array = first.array();
    pool.release(first);

    ByteBuffer smaller = pool.allocate(600);

    assertThat(smaller.array()).isSameAs(array);
    assertThat(smaller.remaining()).isEqualTo(600);
    assertThat(smaller.capacity()).isEqualTo(600);
  }

  @Test
  void anArrayStillLentIsNeverLentTwice() {
    ByteBuffer first = pool.allocate(1000);
    ByteBuffer second = pool.allocate(1000);

    assertThat(second.array()).isNotSameAs(first.array());
  }

  @Test
  void aReleasedArrayTooSmallForTheRequestIsNotUsed() {
    ByteBuffer small = pool.allocate(100);
    pool.release(small);

    assertThat(pool.allocate(1000).array()).isNotSameAs(small.array());
    assertThat(pool.allocate(50).array()).isSameAs(small.array());
  }

  @Test
  void theSmallestFittingArrayIsChosen() {
    ByteBuffer large = pool.allocate(10_000);
    ByteBuffer medium = pool.allocate(2_000);
    pool.release(large);
    pool.release(medium);

    assertThat(pool.allocate(1_500).array()).isSameAs(medium.array());
    assertThat(pool.allocate(1_500).array()).isSameAs(large.array());
  }

  @Test
  void buffersThePoolDidNotLendAreIgnored() {
    byte[] foreign = new byte[1000];
    pool.release(ByteBuffer.wrap(foreign));
    pool.release(ByteBuffer.allocateDirect(1000));
    pool.release(null);

    assertThat(pool.allocate(1000).array()).isNotSameAs(foreign);
  }

  @Test
  void reclaimTakesBackWhatWasLentAndNeverReleased() {
    // parquet-hadoop never releases the buffers of a vectored read
    ByteBuffer first = vectored.allocate(1000);
    ByteBuffer second = vectored.allocate(2000);

    pool.reclaim();

    assertThat(pool.allocate(1000).array()).isSameAs(first.array());
    assertThat(pool.allocate(1000).array()).isSameAs(second.array());
  }

  @Test
  void reclaimDoesNotLendAReleasedArrayTwice() {
    ByteBuffer buffer = vectored.allocate(1000);
    vectored.release(buffer);

    pool.reclaim();

    assertThat(pool.allocate(1000).array()).isSameAs(buffer.array());
    assertThat(pool.allocate(1000).array()).isNotSameAs(buffer.array());
  }

  @Test
  void reclaimLeavesAloneWhatIsLentAfterIt() {
    ByteBuffer before = vectored.allocate(1000);
    pool.reclaim();
    ByteBuffer after = vectored.allocate(1000);

    assertThat(after.array()).isSameAs(before.array());
    pool.reclaim();
    pool.reclaim();

    assertThat(pool.allocate(1000).array()).isSameAs(after.array());
    assertThat(pool.allocate(1000).array()).isNotSameAs(after.array());
  }

  @Test
  void aForgottenArrayIsNeverLentAgain() {
    // a failed read may still have a vectored range in flight into it
    ByteBuffer buffer = vectored.allocate(1000);

    pool.forget();
    pool.reclaim();

    assertThat(pool.allocate(1000).array()).isNotSameAs(buffer.array());
  }

  @Test
  void reclaimLeavesAloneWhatWasLentOutsideVectoredReads() {
    // parquet-hadoop's page checksum verifier keeps one buffer for the reader's lifetime and
    // writes every verified page into it: reclaiming it would lend it to the next chunk read
    ByteBuffer held = pool.allocate(1000);

    pool.reclaim();

    assertThat(pool.allocate(1000).array()).isNotSameAs(held.array());
    pool.release(held);
    assertThat(pool.allocate(1000).array()).isSameAs(held.array());
  }

  @Test
  void aForgottenArrayIsNotKeptReachable() throws InterruptedException {
    WeakReference<byte[]> array = new WeakReference<>(vectored.allocate(1 << 20).array());
    pool.forget();

    for (int i = 0; i < 50 && array.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }

    assertThat(array.get()).isNull();
  }

  @Test
  void aBufferReleasedTwiceIsReusedOnce() {
    ByteBuffer buffer = pool.allocate(1000);
    pool.release(buffer);
    pool.release(buffer);

    ByteBuffer first = pool.allocate(1000);
    ByteBuffer second = pool.allocate(1000);

    assertThat(first.array()).isSameAs(buffer.array());
    assertThat(second.array()).isNotSameAs(buffer.array());
  }
}
