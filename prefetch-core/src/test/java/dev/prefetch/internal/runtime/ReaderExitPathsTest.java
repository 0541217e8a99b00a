package dev.prefetch.internal.runtime;

import static dev.prefetch.internal.runtime.SyntheticFormat.ranges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runtime's less travelled exits: planning a later file while the consumer closes or is
 * interrupted, errors thrown while planning or closing, interrupts and foreign executors, and what
 * the metrics say after close.
 */
@Timeout(60)
@ExtendWith(NothingLeaks.class)
class ReaderExitPathsTest {

  /** A plan hook that signals {@code started} and then waits for {@code gate}. */
  private static SyntheticFormat.Hook blockUntil(CountDownLatch started, CountDownLatch gate) {
    return () -> {
      started.countDown();
      try {
        if (!gate.await(10, TimeUnit.SECONDS)) {
          throw new IOException("the test never opened the gate");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while planning");
      }
    };
  }

  @Test
  void consumerInterruptAndCloseAreHonouredWhileAProducerPlansALaterFileAndAnotherWaitsForIt()
      throws Exception {
    CountDownLatch planning = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    DataFile first = SyntheticFormat.register("plan-a", SyntheticFormat.Spec.of(ranges(2, 10)));
    DataFile second = SyntheticFormat.register("plan-b", SyntheticFormat.Spec.of(ranges(2, 10)));
    SyntheticFormat.onPlan("plan-b", blockUntil(planning, gate));
    BatchReader reader =
        Readers.open(
            List.of(first, second), Scans.prefetching(2, 4, 10).build(), ReadContext.defaults());
    try {
      assertThat(planning.await(10, TimeUnit.SECONDS)).isTrue();
      Waits.awaitProducers(1, Thread.State.WAITING); // the other one waits for that plan's lock

      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread consumer =
          new Thread(
              () -> {
                try {
                  while (reader.next() != null) {
                    // file a's two batches, then wait for file b
                  }
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      consumer.start();
      Waits.awaitState(consumer, Thread.State.TIMED_WAITING); // the consumer naps, see Exchange
      consumer.interrupt();
      consumer.join(2000);
      assertThat(consumer.isAlive()).as("consumer still stuck after its interrupt").isFalse();
      assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);

      long start = System.nanoTime();
      reader.close();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(millis).as("close took %d ms", millis).isLessThan(2000);
    } finally {
      gate.countDown();
      reader.close();
    }
  }

  @Test
  void anErrorThrownWhilePlanningALaterFileNamesThatFile() throws Exception {
    DataFile first = SyntheticFormat.register("error-a", SyntheticFormat.Spec.of(ranges(4, 10)));
    DataFile second = SyntheticFormat.register("error-b", SyntheticFormat.Spec.of(ranges(4, 10)));
    SyntheticFormat.onPlan(
        "error-b",
        SyntheticFormat.throwing(() -> new NoClassDefFoundError("org/example/MissingCodec")));
    try (BatchReader reader =
        Readers.open(
            List.of(first, second), Scans.prefetching(2, 2, 10).build(), ReadContext.defaults())) {
      assertThatThrownBy(() -> Scans.drain(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("error-b.synth")
          .hasMessageNotContaining("error-a.synth")
          .hasRootCauseInstanceOf(NoClassDefFoundError.class)
          .satisfies(
              e ->
                  assertThat(((ReadException) e).file().path().getName())
                      .isEqualTo("error-b.synth"));
    }
  }

  @Test
  void aFailureToCloseAFinishedFilesReaderOnTheSinglePathNamesThatFile() throws Exception {
    DataFile first = SyntheticFormat.register("closing-a", SyntheticFormat.Spec.of(ranges(2, 10)));
    DataFile second = SyntheticFormat.register("next-b", SyntheticFormat.Spec.of(ranges(2, 10)));
    SyntheticFormat.onReaderClose(
        "closing-a", SyntheticFormat.throwing(() -> new IOException("cannot release the handle")));
    try (BatchReader reader =
        Readers.open(List.of(first, second), Scans.single(10), ReadContext.defaults())) {
      assertThatThrownBy(() -> Scans.drain(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("closing-a.synth")
          .hasMessageContaining("cannot release the handle")
          .hasMessageNotContaining("next-b.synth");
    }
  }

  @Test
  void anInterruptedSingleReaderRaisesTheInterruptAsThePrefetchingPathDoes() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "interrupted-single", SyntheticFormat.Spec.of(ranges(3, 100)).withDelays(50, 5));
    try (BatchReader reader = Readers.open(file, Scans.single(10), ReadContext.defaults())) {
      assertThat(reader.metrics().prefetch()).isFalse();
      assertThat(reader.next()).isNotNull();
      Thread.currentThread().interrupt();
      try {
        assertThatThrownBy(reader::next).isInstanceOf(InterruptedIOException.class);
        assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag kept").isTrue();
      } finally {
        Thread.interrupted();
      }
      // The range reader stopped mid-batch: the read does not resume, and says where it stopped.
      assertThatThrownBy(reader::next)
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("interrupted-single.synth")
          .hasCauseInstanceOf(InterruptedIOException.class);
    }
  }

  @Test
  void aReaderThatFailsToCloseAfterTheLastBatchStillFailsTheReadOnBothPaths() throws Exception {
    DataFile file = SyntheticFormat.register("last-close", SyntheticFormat.Spec.of(ranges(4, 20)));
    SyntheticFormat.onReaderClose(
        "last-close",
        () -> {
          // Slow to release, as remote storage can be: the consumer has seen the last batch by
          // then.
          java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
          throw new IOException("cannot release the handle");
        });
    for (ReadOptions options : List.of(Scans.single(10), Scans.prefetching(2, 4, 10).build())) {
      try (BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
        assertThatThrownBy(() -> Scans.drain(reader))
            .as("prefetch=%s", options.prefetchEnabled())
            .isInstanceOf(ReadException.class)
            .hasMessageContaining("last-close.synth")
            .hasMessageContaining("cannot release the handle");
      }
    }
  }

  @Test
  void metricsHandedToTheSinkAtCloseStillCountThePlannedRanges() throws Exception {
    DataFile file = SyntheticFormat.register("sunk", SyntheticFormat.Spec.of(ranges(6, 25)));
    for (ReadOptions options : List.of(Scans.single(10), Scans.prefetching(3, 2, 10).build())) {
      List<ReaderMetrics> sunk = new ArrayList<>();
      try (ReadContext context = ReadContext.builder().metricsSink(sunk::add).build()) {
        try (BatchReader reader = Readers.open(file, options, context)) {
          Scans.drain(reader);
        }
      }
      assertThat(sunk).hasSize(1);
      assertThat(sunk.get(0).rangesPlanned())
          .as("prefetch=%s", options.prefetchEnabled())
          .isEqualTo(6);
      assertThat(sunk.get(0).rows()).isEqualTo(150);
    }
  }

  @Test
  void anInterruptMeantForAProducerNeverReachesTheExecutorThreadAfterTheProducerReturned()
      throws Exception {
    WatchedPool pool = new WatchedPool(2);
    try (ReadContext context = ReadContext.builder().executor(pool).build()) {
      DataFile file =
          SyntheticFormat.register("late-interrupt", SyntheticFormat.Spec.of(ranges(64, 100)));
      for (int i = 0; i < 3; i++) {
        BatchReader reader = Readers.open(file, Scans.prefetching(2, 1, 10).build(), context);
        assertThat(reader.next()).isNotNull();
        // both producers parked on full queues, their threads returned
        Waits.until(
            () -> pool.getActiveCount() == 0 && pool.getQueue().isEmpty(),
            () -> "pool threads never went idle");
        reader.close();
      }
      assertThat(pool.lateInterrupts.get())
          .as("interrupts delivered to a pool thread after its producer returned")
          .isZero();
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void anExecutorThatRunsAProducerOnTheCallersThreadReadsToTheEndInsteadOfHanging()
      throws Exception {
    ThreadPoolExecutor pool = EnginePool.oneThreadCallerRuns("engine-busy");
    CountDownLatch release = new CountDownLatch(1);
    pool.execute(
        () -> {
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    DataFile file =
        SyntheticFormat.register("caller-runs", SyntheticFormat.Spec.of(ranges(32, 100)));
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<List<Scans.Seen>> seen = new AtomicReference<>();
    try (ReadContext context = ReadContext.builder().executor(pool).build()) {
      Thread caller =
          new Thread(
              () -> {
                try (BatchReader reader =
                    Readers.open(file, Scans.prefetching(2, 1, 10).build(), context)) {
                  seen.set(Scans.drain(reader));
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      caller.setDaemon(true);
      caller.start();
      caller.join(10_000);
      assertThat(caller.isAlive()).as("the caller hangs inside its own producer").isFalse();
      assertThat(thrown.get()).isNull();
      PrefetchOrderTest.assertSameBatches(
          seen.get(), Scans.readAll(List.of(file), Scans.single(10)), "caller-runs");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void anExecutorThatRefusesAProducerWithAnyExceptionFailsTheReadAndLeavesNoProducerRunning()
      throws Exception {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newCachedThreadPool(EnginePool.daemon("engine-draining"));
    AtomicInteger submitted = new AtomicInteger();
    java.util.concurrent.ExecutorService refusing =
        new java.util.concurrent.AbstractExecutorService() {
          @Override
          public void execute(Runnable task) {
            if (submitted.incrementAndGet() > 1) {
              throw new IllegalStateException("the pool is draining");
            }
            pool.execute(task);
          }

          @Override
          public void shutdown() {
            pool.shutdown();
          }

          @Override
          public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
          }

          @Override
          public boolean isShutdown() {
            return pool.isShutdown();
          }

          @Override
          public boolean isTerminated() {
            return pool.isTerminated();
          }

          @Override
          public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
          }
        };
    DataFile file = SyntheticFormat.register("refused", SyntheticFormat.Spec.of(ranges(32, 100)));
    try (ReadContext context = ReadContext.builder().executor(refusing).build()) {
      try (BatchReader reader = Readers.open(file, Scans.prefetching(3, 1, 10).build(), context)) {
        assertThatThrownBy(() -> Scans.drain(reader))
            .isInstanceOf(ReadException.class)
            .hasMessageContaining("refused.synth")
            .hasRootCauseMessage("the pool is draining");
      }
      // The one producer that did start was stopped by close and released its reader.
      assertThat(SyntheticFormat.OPEN_READERS.get()).isZero();
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void closeCalledWithTheInterruptFlagSetStillStopsEveryProducerAndKeepsTheFlag() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "close-interrupted", SyntheticFormat.Spec.of(ranges(64, 100)).withDelays(50, 11));
    BatchReader reader =
        Readers.open(file, Scans.prefetching(4, 1, 10).build(), ReadContext.defaults());
    assertThat(reader.next()).isNotNull();
    Thread.currentThread().interrupt();
    try {
      reader.close();
      assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag kept").isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(ReaderThreads.live()).isEmpty();
    assertThat(SyntheticFormat.OPEN_READERS.get()).isZero();
    assertThat(SyntheticFormat.OPEN_PLANS.get()).isZero();
  }

  /**
   * A pool whose threads count interrupts that arrive after the task they were meant for has
   * returned. Before delivering an interrupt, a thread lets its task run on for a moment, as if the
   * interrupting thread had been preempted just before the call: an interrupt that is only safe
   * when the interrupter wins that race shows up here.
   */
  private static final class WatchedPool extends ThreadPoolExecutor {
    final AtomicInteger lateInterrupts = new AtomicInteger();

    WatchedPool(int threads) {
      super(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
      setThreadFactory(
          r -> {
            Thread thread = new WatchedThread(r);
            thread.setDaemon(true);
            return thread;
          });
    }

    @Override
    protected void beforeExecute(Thread thread, Runnable task) {
      ((WatchedThread) thread).taskDone = new CountDownLatch(1);
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
      ((WatchedThread) Thread.currentThread()).taskDone.countDown();
    }

    final class WatchedThread extends Thread {
      volatile CountDownLatch taskDone = new CountDownLatch(0);

      WatchedThread(Runnable task) {
        super(task, "engine-watched");
      }

      @Override
      public void interrupt() {
        if (Thread.currentThread() != this && !isShutdown()) {
          CountDownLatch done = taskDone;
          try {
            done.await(200, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (done.getCount() == 0) {
            lateInterrupts.incrementAndGet();
          }
        }
        super.interrupt();
      }
    }
  }
}
