package dev.prefetch.internal.runtime;

import static dev.prefetch.internal.runtime.SyntheticFormat.ranges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(60)
@ExtendWith(NothingLeaks.class)
class PrefetchLifecycleTest {

  @RegisterExtension static final EnginePool POOL = new EnginePool("engine-pool");

  @Test
  void closeWhileEveryProducerIsBlockedOnAFullQueueReturnsPromptly() throws Exception {
    DataFile file = SyntheticFormat.register("blocked", SyntheticFormat.Spec.of(ranges(64, 100)));
    BatchReader reader =
        Readers.open(file, Scans.prefetching(4, 1, 10).build(), ReadContext.defaults());
    assertThat(reader.next()).isNotNull();
    Waits.awaitProducers(4, Thread.State.WAITING);

    long start = System.nanoTime();
    reader.close();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(millis).as("close took %d ms", millis).isLessThan(1000);
    assertThat(ReaderThreads.live()).isEmpty();
    assertThatThrownBy(reader::next).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void closeWhileAProducerIsMidReadStopsIt() throws Exception {
    CountDownLatch neverOpened = new CountDownLatch(1);
    DataFile file =
        SyntheticFormat.register(
            "mid-read", SyntheticFormat.Spec.of(ranges(8, 100)).blockingAt(0, neverOpened));
    BatchReader reader =
        Readers.open(file, Scans.prefetching(3, 2, 10).build(), ReadContext.defaults());
    Waits.awaitProducers(
        2, Thread.State.WAITING); // the two producers past range 0 fill their queues
    long start = System.nanoTime();
    reader.close(); // range 0's producer is blocked inside "I/O"; close interrupts it
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1000);
    assertThat(ReaderThreads.live()).isEmpty();
  }

  @Test
  void producerFailureMidRangeReachesTheConsumerNamingTheRange() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "failing", SyntheticFormat.Spec.of(ranges(12, 100)).failingAt(5, 3));
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(4, 2, 10).build(), ReadContext.defaults())) {
      assertThatThrownBy(
              () -> {
                while (reader.next() != null) {
                  // drain until the failure surfaces
                }
              })
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("failing.synth")
          .hasMessageContaining("range 5")
          .hasMessageContaining("injected failure in range 5")
          .satisfies(
              e -> {
                ReadException read = (ReadException) e;
                assertThat(read.range().index()).isEqualTo(5);
                assertThat(read.getCause())
                    .isInstanceOf(IOException.class)
                    .hasMessage("injected failure in range 5");
              });
      // The failure is sticky: the reader does not resume after it.
      assertThatThrownBy(reader::next).isInstanceOf(ReadException.class);
    }
  }

  @Test
  void singleReaderFailureIsAlsoAReadExceptionNamingTheRange() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "failing-single", SyntheticFormat.Spec.of(ranges(3, 100)).failingAt(2, 0));
    try (BatchReader reader = Readers.open(file, Scans.single(50), ReadContext.defaults())) {
      assertThatThrownBy(
              () -> {
                while (reader.next() != null) {
                  // drain
                }
              })
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("range 2");
    }
  }

  @Test
  void consumerInterruptedWhileWaitingGetsInterruptedIOExceptionAndKeepsTheFlag() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    DataFile file =
        SyntheticFormat.register(
            "interrupted", SyntheticFormat.Spec.of(ranges(4, 10)).blockingAt(0, gate));
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flagKept = new AtomicReference<>();
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(2, 2, 10).build(), ReadContext.defaults())) {
      Thread consumer =
          new Thread(
              () -> {
                try {
                  reader.next();
                } catch (Throwable t) {
                  thrown.set(t);
                  flagKept.set(Thread.currentThread().isInterrupted());
                }
              });
      consumer.start();
      Waits.awaitState(consumer, Thread.State.TIMED_WAITING); // the consumer naps, see Exchange
      consumer.interrupt();
      consumer.join(5000);
      assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
      assertThat(flagKept.get()).isTrue();
      gate.countDown();
    }
  }

  @Test
  void aLoneBatchReachesTheConsumerWhileItsProducerStalls() throws Exception {
    // The consumer is woken for bursts of batches; a batch followed by a stall of its producer
    // (the second batch of range 0 waits until the consumer has the first) must still arrive.
    CountDownLatch consumerWaits = new CountDownLatch(1);
    CountDownLatch firstBatchTaken = new CountDownLatch(1);
    DataFile file =
        SyntheticFormat.register(
            "lone",
            SyntheticFormat.Spec.of(ranges(2, 20))
                .withPayload(8)
                .withStartGate(consumerWaits)
                .blockingAt(0, 1, firstBatchTaken));
    // One producer: a second one would run out of ranges and wake the consumer to say so.
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(1, 8, 10).build(), ReadContext.defaults())) {
      AtomicReference<RecordBatch> first = new AtomicReference<>();
      Thread consumer =
          new Thread(
              () -> {
                try {
                  first.set(reader.next());
                } catch (IOException e) {
                  throw new RuntimeException(e);
                }
              });
      consumer.start();
      Waits.awaitState(consumer, Thread.State.TIMED_WAITING);
      consumerWaits.countDown(); // only now is the first batch made

      // Without the consumer's linger this waits out the stalled producer's 30 s gate.
      consumer.join(10_000);
      assertThat(first.get()).as("the first batch, taken while its producer stalls").isNotNull();
      firstBatchTaken.countDown();
      assertThat(first.get().firstRow()).isZero();
      long rows = first.get().rowCount();
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
      }
      assertThat(rows).isEqualTo(40);
    }
  }

  @Test
  void zeroRangesReadNothingAndStartNoThread() throws Exception {
    DataFile file = SyntheticFormat.register("empty", SyntheticFormat.Spec.of(List.of()));
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(4, 2, 10).build(), ReadContext.defaults())) {
      assertThat(ReaderThreads.live()).isEmpty();
      assertThat(reader.next()).isNull();
      assertThat(reader.metrics().prefetch()).isFalse();
    }
  }

  @Test
  void oneRangeIsReadOnTheCallersThread() throws Exception {
    DataFile file = SyntheticFormat.register("one", SyntheticFormat.Spec.of(List.of(25)));
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(4, 2, 10).build(), ReadContext.defaults())) {
      assertThat(ReaderThreads.live()).isEmpty();
      assertThat(Scans.drain(reader)).extracting(Scans.Seen::rowCount).containsExactly(10, 10, 5);
      assertThat(reader.metrics().decision()).contains("1 read range");
    }
  }

  @Test
  void rangesWithZeroRowsGiveNoBatches() throws Exception {
    DataFile file = SyntheticFormat.register("zero-rows", SyntheticFormat.Spec.of(ranges(5, 0)));
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(3, 2, 10).build(), ReadContext.defaults())) {
      assertThat(reader.metrics().prefetch()).isTrue();
      assertThat(reader.next()).isNull();
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void belowTheMinimumReadSizeNoThreadIsStarted() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "small", SyntheticFormat.Spec.of(ranges(10, 10)).withBytesPerRange(1000));
    ReadOptions options = ReadOptions.builder().minReadBytes(1_000_000).build();
    try (BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
      assertThat(Scans.drain(reader)).hasSize(10);
      assertThat(ReaderThreads.live()).isEmpty();
      assertThat(reader.metrics().prefetch()).isFalse();
      assertThat(reader.metrics().decision()).contains("prefetch.min-read-bytes");
    }
  }

  @Test
  void byteBudgetHoldsWithBatchesLargerAndSmallerThanTheBudgetShare() throws Exception {
    // 10 rows x 100 bytes = ~1 KB payload per batch; budgets below one batch, near the share,
    // and above it.
    DataFile file =
        SyntheticFormat.register(
            "budget", SyntheticFormat.Spec.of(ranges(40, 50)).withPayload(100).withDelays(100, 7));
    List<Scans.Seen> expected = Scans.readAll(List.of(file), Scans.single(10));
    for (long budget : new long[] {500, 1_500, 3_000, 8_000, 1_000_000}) {
      ReadOptions options = Scans.prefetching(4, 4, 10).maxBufferedBytes(budget).build();
      try (BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
        List<Scans.Seen> seen = new ArrayList<>();
        long largest = 0;
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          largest = Math.max(largest, batch.sizeInBytes());
          seen.add(Scans.drainOne(batch));
          Thread.sleep(0, 200_000); // a slow consumer lets queues fill up
        }
        PrefetchOrderTest.assertSameBatches(seen, expected, "budget " + budget);
        // Beyond the budget: the batch handed off to the waiting consumer, and a batch that
        // outgrew its reservation (see Budget).
        assertThat(reader.metrics().peakBufferedBytes())
            .as("peak with budget %d", budget)
            .isLessThanOrEqualTo(budget + 2 * largest);
      }
    }
  }

  @Test
  void theConsumerDoesNotSpinWhileWaitingForSlowProducers() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    DataFile file =
        SyntheticFormat.register(
            "slow", SyntheticFormat.Spec.of(ranges(4, 10)).blockingAt(0, gate));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (BatchReader reader =
        Readers.open(file, Scans.prefetching(2, 2, 10).build(), ReadContext.defaults())) {
      Thread opener =
          new Thread(
              () -> {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                gate.countDown();
              });
      opener.start();
      long cpuBefore = threads.getCurrentThreadCpuTime();
      long wallBefore = System.nanoTime();
      assertThat(reader.next()).isNotNull();
      long cpuNanos = threads.getCurrentThreadCpuTime() - cpuBefore;
      long wallNanos = System.nanoTime() - wallBefore;
      opener.join();
      assertThat(wallNanos).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(400));
      // A spinning consumer would burn about the whole wait; a parked one uses almost nothing.
      assertThat(cpuNanos)
          .as("consumer CPU while waiting %d ms wall", wallNanos / 1_000_000)
          .isLessThan(wallNanos / 4);
      assertThat(reader.metrics().consumerWaitNanos()).isGreaterThan(0);
    }
  }

  @Test
  void producersRunOnTheContextsExecutorWhenOneIsGiven() throws Exception {
    try (ReadContext context = POOL.context(true)) {
      DataFile file = SyntheticFormat.register("executor", SyntheticFormat.Spec.of(ranges(20, 30)));
      for (int i = 0; i < 3; i++) {
        try (BatchReader reader = Readers.open(file, Scans.prefetching(3, 1, 7).build(), context)) {
          assertThat(ReaderThreads.live()).isEmpty();
          assertThat(reader.next()).isNotNull(); // then close early, mid-scan
        }
        try (BatchReader reader = Readers.open(file, Scans.prefetching(3, 1, 7).build(), context)) {
          assertThat(Scans.drain(reader).stream().mapToInt(Scans.Seen::rowCount).sum())
              .isEqualTo(600);
        }
      }
    }
  }

  @Test
  void aLaterFileThatCannotBeOpenedFailsTheReadNamingThatFile() throws Exception {
    DataFile good = SyntheticFormat.register("good", SyntheticFormat.Spec.of(ranges(3, 10)));
    DataFile missing = DataFile.of(new org.apache.hadoop.fs.Path("file:/synthetic/absent.synth"));
    try (BatchReader reader =
        Readers.open(
            List.of(good, missing), Scans.prefetching(2, 2, 10).build(), ReadContext.defaults())) {
      assertThatThrownBy(() -> Scans.drain(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("absent.synth");
    }
  }

  @Test
  void aFormatBugWhilePlanningTheFirstFileIsAReadErrorNamingTheFile() {
    DataFile file = SyntheticFormat.register("buggy", SyntheticFormat.Spec.of(ranges(3, 10)));
    SyntheticFormat.onPlan(
        "buggy",
        SyntheticFormat.throwing(
            () -> new IndexOutOfBoundsException("Index 7 out of bounds for length 3")));
    assertThatThrownBy(
            () -> Readers.open(file, Scans.prefetching(2, 2, 10).build(), ReadContext.defaults()))
        .isInstanceOf(ReadException.class)
        .hasMessageContaining("buggy.synth")
        .hasRootCauseInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void callerInputRejectedWhilePlanningKeepsItsTypeAndNamesTheFile() {
    DataFile file = SyntheticFormat.register("picky", SyntheticFormat.Spec.of(ranges(3, 10)));
    SyntheticFormat.onPlan(
        "picky", SyntheticFormat.throwing(() -> new IllegalArgumentException("no column 'x'")));
    assertThatThrownBy(
            () -> Readers.open(file, Scans.prefetching(2, 2, 10).build(), ReadContext.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("picky.synth")
        .hasMessageContaining("no column 'x'");
  }

  @Test
  void closingEarlyAtRandomPointsLeavesNothingBehind() throws Exception {
    java.util.Random random = new java.util.Random(42);
    DataFile file =
        SyntheticFormat.register(
            "early", SyntheticFormat.Spec.of(ranges(30, 40)).withDelays(100, 3));
    for (int i = 0; i < 30; i++) {
      int stopAfter = random.nextInt(40);
      try (BatchReader reader =
          Readers.open(
              file,
              Scans.prefetching(
                      1 + random.nextInt(8), 1 + random.nextInt(4), 1 + random.nextInt(20))
                  .build(),
              ReadContext.defaults())) {
        for (int b = 0; b < stopAfter && reader.next() != null; b++) {
          // read a few batches, then close mid-scan
        }
      }
      assertThat(ReaderThreads.live()).isEmpty();
    }
  }

  @Test
  void metricsCountBatchesRowsAndTheDecision() throws Exception {
    DataFile file = SyntheticFormat.register("metrics", SyntheticFormat.Spec.of(ranges(6, 25)));
    List<dev.prefetch.ReaderMetrics> sunk = new ArrayList<>();
    try (ReadContext context = ReadContext.builder().metricsSink(sunk::add).build()) {
      try (BatchReader reader = Readers.open(file, Scans.prefetching(3, 2, 10).build(), context)) {
        Scans.drain(reader);
        assertThat(reader.metrics().batches()).isEqualTo(18);
        assertThat(reader.metrics().rows()).isEqualTo(150);
        assertThat(reader.metrics().rangesPlanned()).isEqualTo(6);
        assertThat(reader.metrics().prefetch()).isTrue();
        assertThat(reader.metrics().parallelism()).isEqualTo(3);
        assertThat(reader.metrics().counter("footerReads")).isEqualTo(1);
      }
    }
    assertThat(sunk).hasSize(1);
  }
}
