package dev.prefetch.internal.runtime;

import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.internal.runtime.Exchange.Admission;
import dev.prefetch.internal.runtime.TaskTable.Task;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeLocator;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.fs.Path;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * The exchange's protocol under Lincheck's model checker, which runs each scenario thousands of
 * times and chooses at every lock, condition, park and shared access which thread goes on, so that
 * the interleavings a stress test meets once a week (a take between a producer's budget check and
 * its park, a close between a claim and a put) are all tried. A scenario fails when a schedule ends
 * in a wrong order, a lost or extra batch, a thread that never ends (a lost wake-up, a deadlock),
 * or a producer state touched by two owners.
 *
 * <p>Every scenario is small on purpose (two producers, queues of one batch, a budget of one
 * batch): the corners of the protocol (the hand-off, the first batch into an empty budget, a
 * producer parked on a full queue while the consumer waits on it) are reached in a few steps.
 */
@Timeout(600)
// Once, on the build's JDK 17: the interleavings do not depend on the JVM, and the module's second
// run on Java 25 covers the runtime there with its stress and lifecycle tests.
@EnabledForJreRange(max = JRE.JAVA_17)
class ExchangeInterleavingsTest {

  /** Schedules explored per scenario ({@code -Dinterleavings.invocations=N} for a longer hunt). */
  private static final int INVOCATIONS = Integer.getInteger("interleavings.invocations", 300);

  private static final int PRODUCERS = 2;
  private static final int TASKS = 3;
  private static final int BATCHES_PER_TASK = 2;
  private static final Schema SCHEMA = new Schema(List.of(Field.of("row", DataType.int64())));
  private static final DataFile FILE = DataFile.of(new Path("file:///interleavings"));

  /** The rows the consumer must see, in order: batch {@code b} of task {@code t} is row 10t+b. */
  private static final List<Long> EXPECTED = expectedRows();

  private static final long BATCH_BYTES = batch(0, 0).sizeInBytes();

  @Test
  void producersOnTheirOwnThreadsHandOutEveryBatchInOrderWithinABudgetOfOneBatch() {
    Lincheck.runConcurrentTest(
        INVOCATIONS,
        () -> {
          Exchange exchange = exchange(false);
          exchange.attach(noSlices());
          List<Thread> threads = new ArrayList<>();
          for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            threads.add(new Thread(() -> produceOnOwnThread(exchange, id)));
          }
          threads.forEach(Thread::start);
          List<Long> rows = consumeAll(exchange);
          joinAll(threads);
          check(rows.equals(EXPECTED), "rows in order, each once: " + rows);
        });
  }

  @Test
  void producersInSlicesParkAndAreResumedSoEveryBatchArrivesInOrder() {
    Lincheck.runConcurrentTest(
        INVOCATIONS,
        () -> {
          Exchange exchange = exchange(true);
          SliceProducers producers = new SliceProducers(exchange);
          producers.submitAll();
          List<Long> rows = consumeAll(exchange);
          producers.joinAll();
          check(rows.equals(EXPECTED), "rows in order, each once: " + rows);
          check(producers.doubleOwners == 0, "a producer was run by two threads at once");
        });
  }

  @Test
  void closeAtAnyPointEndsEveryWaitAndHandsOverOnlyProducersThatAreNotRunning() {
    Lincheck.runConcurrentTest(
        INVOCATIONS,
        () -> {
          Exchange exchange = exchange(true);
          SliceProducers producers = new SliceProducers(exchange);
          producers.submitAll();
          List<Long> rows = new CopyOnWriteArrayList<>();
          Thread consumer =
              new Thread(
                  () -> {
                    try {
                      for (RecordBatch b; (b = exchange.take()) != null; ) {
                        rows.add(b.firstRow());
                      }
                    } catch (IllegalStateException closed) {
                      // the reader was closed under the consumer: expected
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
          consumer.start();
          for (int p : exchange.close()) {
            producers.takeOver(p); // close() owns these now: they must not run again
          }
          joinAll(List.of(consumer));
          producers.joinAll();
          check(
              EXPECTED.subList(0, rows.size()).equals(rows), "rows before close in order: " + rows);
          check(producers.doubleOwners == 0, "a producer was touched by two owners");
        });
  }

  @Test
  void aFailureReachesTheConsumerAfterEveryEarlierBatchAndStopsLaterTasks() {
    Lincheck.runConcurrentTest(
        INVOCATIONS,
        () -> {
          Exchange exchange = exchange(false);
          exchange.attach(noSlices());
          ReadException failure = new ReadException(FILE, "task 1 failed", null);
          List<Thread> threads = new ArrayList<>();
          for (int p = 0; p < PRODUCERS; p++) {
            int id = p;
            threads.add(new Thread(() -> produceFailingAtTask(exchange, id, 1, failure)));
          }
          threads.forEach(Thread::start);
          List<Long> rows = new ArrayList<>();
          ReadException seen = null;
          try {
            for (RecordBatch b; (b = exchange.take()) != null; ) {
              rows.add(b.firstRow());
            }
          } catch (ReadException e) {
            seen = e;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          joinAll(threads);
          check(seen == failure, "the failure reaches the consumer: " + seen);
          check(rows.equals(EXPECTED.subList(0, BATCHES_PER_TASK)), "task 0 whole first: " + rows);
        });
  }

  // ---- the scenario's parts

  private static Exchange exchange(boolean parking) {
    return new Exchange(new OneFile(), PRODUCERS, 1, BATCH_BYTES, new ReaderStats(), parking);
  }

  /** What {@link Producer} does on its own thread, with batches made up instead of read. */
  private static void produceOnOwnThread(Exchange exchange, int producer) {
    produceFailingAtTask(exchange, producer, -1, null);
  }

  /**
   * As {@link #produceOnOwnThread}, but the read of task {@code failing} fails with {@code failure}
   * (-1: none does).
   */
  private static void produceFailingAtTask(
      Exchange exchange, int producer, int failing, ReadException failure) {
    if (!exchange.beginSlice(producer)) {
      return;
    }
    try {
      for (Task task; (task = exchange.claim(producer)) != null; ) {
        if (task.seq() == failing) {
          exchange.fail(failure, task.seq());
          return;
        }
        for (int b = 0; b < BATCHES_PER_TASK; b++) {
          if (exchange.reserve(producer, task, BATCH_BYTES) == Admission.STOPPED
              || exchange.put(producer, task, batch(task.seq(), b), false) == Admission.STOPPED) {
            return;
          }
        }
        exchange.endTask(producer, task.seq());
      }
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    } finally {
      exchange.producerFinished(producer);
    }
  }

  private static List<Long> consumeAll(Exchange exchange) {
    List<Long> rows = new ArrayList<>();
    try {
      for (RecordBatch b; (b = exchange.take()) != null; ) {
        rows.add(b.firstRow());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /**
   * Producers in slices, as {@link Producer} runs on an executor: the executor is one worker thread
   * per producer, which runs a slice for every submission (a duplicate finds the producer not due
   * and returns); a slice parks (returns) when there is no room, and the consumer resumes the
   * producer or runs a slice itself. One worker per producer rather than a thread per submission
   * keeps the threads few, so the model checker explores schedules, not thread start-ups.
   */
  private static final class SliceProducers {
    private final Exchange exchange;
    private final SliceProducer[] producers = new SliceProducer[PRODUCERS];
    private final Semaphore[] submitted = new Semaphore[PRODUCERS];
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;
    private volatile int doubleOwners;

    SliceProducers(Exchange exchange) {
      this.exchange = exchange;
      for (int p = 0; p < PRODUCERS; p++) {
        producers[p] = new SliceProducer(p, exchange, this);
        submitted[p] = new Semaphore(0);
        int id = p;
        workers.add(new Thread(() -> work(id)));
      }
      exchange.attach(
          new Slices() {
            @Override
            public void submit(int producer) {
              submitted[producer].release();
            }

            @Override
            public void help(int producer) {
              producers[producer].slice(true);
            }
          });
    }

    private void work(int producer) {
      while (true) {
        submitted[producer].acquireUninterruptibly();
        if (stopping) {
          return;
        }
        producers[producer].run();
      }
    }

    void submitAll() {
      workers.forEach(Thread::start);
      for (int p = 0; p < PRODUCERS; p++) {
        exchange.submit(p);
      }
    }

    /** close() handed producer {@code p} to the closing thread. */
    void takeOver(int p) {
      producers[p].enter(this);
      producers[p].exit();
    }

    /** Ends the workers once the read is over, after the submissions they still hold. */
    void joinAll() {
      stopping = true;
      for (Semaphore s : submitted) {
        s.release();
      }
      ExchangeInterleavingsTest.joinAll(workers);
    }
  }

  /** One producer's state between slices, with a check that one owner at a time touches it. */
  private static final class SliceProducer {
    private final int id;
    private final Exchange exchange;
    private final SliceProducers all;
    private volatile boolean owned;
    private Task task;
    private int nextBatch;
    private RecordBatch pending;
    private boolean reserved;

    SliceProducer(int id, Exchange exchange, SliceProducers all) {
      this.id = id;
      this.exchange = exchange;
      this.all = all;
    }

    void run() {
      if (exchange.beginSlice(id)) {
        slice(false);
      }
    }

    /**
     * Ownership passes to the exchange inside {@code put} and {@code reserve} (a park, under its
     * lock) and at {@code yieldSlice}, so the slice gives it up before those calls and takes it
     * back only when it got the producer back.
     */
    void slice(boolean helper) {
      enter(all);
      Admission outcome;
      try {
        outcome = work(helper);
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
      if (outcome == Admission.PARKED) {
        return; // the exchange owns it: touch nothing
      }
      exit();
      if (outcome == Admission.YIELD && exchange.yieldSlice(id)) {
        exchange.submit(id);
        return;
      }
      exchange.producerFinished(id);
    }

    private Admission work(boolean helper) throws IOException, InterruptedException {
      while (true) {
        if (pending != null) {
          exit();
          Admission admitted = exchange.put(id, task, pending, helper);
          if (admitted == Admission.PARKED) {
            return admitted;
          }
          enter(all);
          if (admitted == Admission.STOPPED) {
            return admitted;
          }
          pending = null;
          nextBatch++;
          if (admitted == Admission.YIELD) {
            return admitted;
          }
        }
        if (task == null) {
          task = exchange.claim(id);
          if (task == null) {
            return Admission.STOPPED;
          }
          nextBatch = 0;
        }
        if (nextBatch == BATCHES_PER_TASK) {
          boolean wanted = exchange.endTask(id, task.seq());
          task = null;
          if (helper && wanted) {
            return Admission.YIELD;
          }
          continue;
        }
        if (!reserved) {
          exit();
          Admission granted = exchange.reserve(id, task, BATCH_BYTES);
          if (granted == Admission.PARKED) {
            return granted;
          }
          enter(all);
          if (granted == Admission.STOPPED) {
            return granted;
          }
          reserved = true;
        }
        reserved = false;
        pending = batch(task.seq(), nextBatch);
      }
    }

    void enter(SliceProducers all) {
      if (owned) {
        all.doubleOwners++;
      }
      owned = true;
    }

    void exit() {
      owned = false;
    }
  }

  /** One file of {@link #TASKS} ranges, planned from the start. */
  private static final class OneFile implements TaskSource {
    private final FilePlan plan = new Plan();

    @Override
    public int size() {
      return 1;
    }

    @Override
    public FilePlan plannedOrNull(int index) {
      return plan;
    }

    @Override
    public FilePlan planForRead(int index) {
      return plan;
    }

    @Override
    public void claimsDone(int index) {}
  }

  private static final class Plan implements FilePlan {
    private final List<ReadRange> ranges = new ArrayList<>();

    Plan() {
      for (int t = 0; t < TASKS; t++) {
        ranges.add(
            new ReadRange(t, 10L * t, BATCHES_PER_TASK, BATCH_BYTES, RangeLocator.named("r" + t)));
      }
    }

    @Override
    public DataFile file() {
      return FILE;
    }

    @Override
    public String formatName() {
      return "interleavings";
    }

    @Override
    public Schema schema() {
      return SCHEMA;
    }

    @Override
    public List<ReadRange> ranges() {
      return ranges;
    }

    @Override
    public RangeReader openReader(ReaderContext context) {
      throw new UnsupportedOperationException("the scenarios make their batches up");
    }
  }

  private static RecordBatch batch(int task, int index) {
    long row = 10L * task + index;
    return new RecordBatch(
        FILE, row, 1, SCHEMA, List.of(new LongVector(DataType.int64(), 1, new long[] {row}, null)));
  }

  private static List<Long> expectedRows() {
    List<Long> rows = new ArrayList<>();
    for (int t = 0; t < TASKS; t++) {
      for (int b = 0; b < BATCHES_PER_TASK; b++) {
        rows.add(10L * t + b);
      }
    }
    return List.copyOf(rows);
  }

  private static Slices noSlices() {
    return new Slices() {
      @Override
      public void submit(int producer) {
        throw new IllegalStateException("own-thread producers are never submitted");
      }

      @Override
      public void help(int producer) {
        throw new IllegalStateException("own-thread producers are never helped");
      }
    };
  }

  /**
   * A check inside a scenario. Plain, not AssertJ: the model checker calls {@code equals} on the
   * objects a scenario creates, which AssertJ's assertion objects refuse.
   */
  private static void check(boolean holds, String what) {
    if (!holds) {
      throw new AssertionError(what);
    }
  }

  private static void joinAll(List<Thread> threads) {
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
