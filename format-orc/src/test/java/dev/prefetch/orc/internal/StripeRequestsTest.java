package dev.prefetch.orc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.orc.internal.stripe.VectoredRead;
import dev.prefetch.testing.CountingLedger;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class StripeRequestsTest {

  private static final DataFile FILE = DataFile.of(java.nio.file.Path.of("/data/kept.orc"));

  /** Stripe 0 of two ranges; stripe 1 keeps nothing. */
  private static StripeRequests requests() {
    return new StripeRequests(FILE, new int[] {2, 0});
  }

  private static VectoredRead.Region region(long position, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (position + i);
    }
    return new VectoredRead.Region(position, bytes, 0, length);
  }

  @Test
  void aKeptReadServesEveryChunkInsideItAndNothingElse() throws InterruptedIOException {
    StripeRequests requests = requests();
    CountingLedger ledger = new CountingLedger();
    ledger.acquire(100);
    Object lock = requests.lock(0);
    try {
      assertThat(requests.cached(lock, 1000, 10)).isNull();
      requests.keep(lock, List.of(region(1000, 100)), ledger);
      ByteBuffer slice = requests.cached(lock, 1040, 10);
      assertThat(slice.remaining()).isEqualTo(10);
      assertThat(slice.get(0)).isEqualTo((byte) 1040);
      assertThat(requests.cached(lock, 1095, 10)).as("runs past the kept read").isNull();
      assertThat(requests.cached(lock, 990, 20)).as("starts before it").isNull();
    } finally {
      requests.unlock(lock);
    }
    assertThat(requests.shares(1)).isFalse();
    assertThatThrownBy(() -> requests.lock(1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void keptReadsCountInTheirReadersLedgerUntilTheStripesLastRangeIsRead()
      throws InterruptedIOException {
    StripeRequests requests = requests();
    CountingLedger ledger = new CountingLedger();
    ledger.acquire(300);
    Object lock = requests.lock(0);
    requests.keep(lock, List.of(region(0, 100), region(500, 200)), ledger);
    requests.unlock(lock);
    requests.rangeDone(0);
    assertThat(ledger.held()).as("one range of the stripe left").isEqualTo(300);
    requests.rangeDone(0);
    assertThat(ledger.held()).isZero();
    // A read ending after its stripe was dropped keeps nothing and counts nothing.
    ledger.acquire(50);
    requests.keep(lock, List.of(region(0, 50)), ledger);
    assertThat(ledger.held()).isZero();
  }

  @Test
  void clearingThePlanReleasesWhatItsStripesKept() throws InterruptedIOException {
    StripeRequests requests = requests();
    CountingLedger ledger = new CountingLedger();
    ledger.acquire(100);
    Object lock = requests.lock(0);
    requests.keep(lock, List.of(region(0, 100)), ledger);
    requests.unlock(lock);
    requests.clear();
    assertThat(ledger.held()).isZero();
  }

  @Test
  @Timeout(30)
  void aProducerWaitingForTheStripesReaderStopsWhenInterrupted() throws Exception {
    StripeRequests requests = requests();
    Object held = requests.lock(0);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(1);
    Thread waiter =
        new Thread(
            () -> {
              started.countDown();
              try {
                requests.unlock(requests.lock(0));
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    waiter.start();
    started.await();
    waiter.interrupt();
    waiter.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(waiter.isAlive()).isFalse();
    assertThat(failure.get())
        .isInstanceOf(InterruptedIOException.class)
        .hasMessageContaining("kept.orc");
    requests.unlock(held);
  }
}
