package dev.prefetch.internal.runtime;

import static dev.prefetch.internal.runtime.SyntheticFormat.ranges;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.testing.ReaderThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * close() returns within a second whatever a producer is stuck on: I/O that ignores interrupts (the
 * stuck reader is aborted from the closing thread, and abandoned if that does not free it), or
 * metadata I/O while it plans a later file. On the reader's own threads and on an executor.
 */
@Timeout(60)
class BoundedCloseTest {

  @RegisterExtension static final EnginePool POOL = new EnginePool("engine-close");

  @AfterEach
  void nothingLeaks() throws InterruptedException {
    // An abandoned producer releases its reader once its I/O returns, shortly after the test
    // opened the gate: wait for that, boundedly.
    Waits.until(
        () ->
            SyntheticFormat.OPEN_READERS.get() == 0
                && SyntheticFormat.OPEN_PLANS.get() == 0
                && ReaderThreads.live().isEmpty(),
        () ->
            "still open: readers "
                + SyntheticFormat.OPEN_READERS.get()
                + ", plans "
                + SyntheticFormat.OPEN_PLANS.get()
                + ", threads "
                + ReaderThreads.live());
  }

  /** A hook that, the first time it runs, signals {@code stuck} and waits ignoring interrupts. */
  private static SyntheticFormat.Hook stuckOnce(CountDownLatch stuck, CountDownLatch gate) {
    AtomicBoolean first = new AtomicBoolean(true);
    return () -> {
      if (first.getAndSet(false)) {
        stuck.countDown();
        boolean interrupted = false;
        while (true) {
          try {
            if (gate.await(30, TimeUnit.SECONDS)) {
              break;
            }
            throw new java.io.IOException("the test never opened the gate");
          } catch (InterruptedException e) {
            interrupted = true; // ignored, as a read stuck in a kernel call ignores it
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  private static long closeMillis(BatchReader reader) throws Exception {
    long start = System.nanoTime();
    reader.close();
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  @ParameterizedTest(name = "executor {0}")
  @ValueSource(booleans = {false, true})
  void closeReturnsWithinASecondAndAbandonsAProducerStuckInIoThatIgnoresInterrupts(boolean executor)
      throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    DataFile file = SyntheticFormat.register("stuck-io", SyntheticFormat.Spec.of(ranges(16, 50)));
    SyntheticFormat.onNext("stuck-io", stuckOnce(stuck, gate));
    List<ReaderMetrics> sunk = new ArrayList<>();
    try (ReadContext base = POOL.context(executor)) {
      ReadContext context =
          ReadContext.builder()
              .configuration(base.configuration())
              .executor(base.executor())
              .metricsSink(sunk::add)
              .build();
      BatchReader reader = Readers.open(file, Scans.prefetching(3, 1, 10).build(), context);
      assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
      long millis = closeMillis(reader);
      assertThat(millis).as("close took %d ms", millis).isLessThan(1000);
      assertThat(reader.metrics().producersAbandoned()).isEqualTo(1);
      assertThat(sunk)
          .singleElement()
          .satisfies(m -> assertThat(m.producersAbandoned()).isEqualTo(1));
    } finally {
      gate.countDown();
    }
  }

  @ParameterizedTest(name = "executor {0}")
  @ValueSource(booleans = {false, true})
  void abortingAStuckReaderFromTheClosingThreadFreesItsProducerBeforeCloseReturns(boolean executor)
      throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    DataFile file = SyntheticFormat.register("aborted-io", SyntheticFormat.Spec.of(ranges(16, 50)));
    SyntheticFormat.onNext("aborted-io", stuckOnce(stuck, gate));
    SyntheticFormat.onAbort("aborted-io", gate::countDown); // as closing a stream ends its read
    try (ReadContext context = POOL.context(executor)) {
      BatchReader reader = Readers.open(file, Scans.prefetching(3, 1, 10).build(), context);
      assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
      long millis = closeMillis(reader);
      assertThat(millis).as("close took %d ms", millis).isLessThan(1000);
      assertThat(reader.metrics().producersAbandoned()).isZero();
      assertThat(SyntheticFormat.OPEN_READERS.get()).as("readers open after close").isZero();
      if (!executor) {
        assertThat(ReaderThreads.live()).isEmpty();
      }
    } finally {
      gate.countDown();
    }
  }

  @ParameterizedTest(name = "executor {0}")
  @ValueSource(booleans = {false, true})
  void closeNeverWaitsForAProducerStuckPlanningALaterFile(boolean executor) throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    DataFile first = SyntheticFormat.register("plan-first", SyntheticFormat.Spec.of(ranges(2, 10)));
    DataFile second =
        SyntheticFormat.register("plan-stuck", SyntheticFormat.Spec.of(ranges(4, 10)));
    SyntheticFormat.onPlan("plan-stuck", stuckOnce(stuck, gate));
    try (ReadContext context = POOL.context(executor)) {
      BatchReader reader =
          Readers.open(List.of(first, second), Scans.prefetching(2, 4, 10).build(), context);
      assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
      long millis = closeMillis(reader);
      assertThat(millis).as("close took %d ms", millis).isLessThan(1000);
      assertThat(reader.metrics().producersAbandoned()).isEqualTo(1);
    } finally {
      gate.countDown();
    }
  }
}
