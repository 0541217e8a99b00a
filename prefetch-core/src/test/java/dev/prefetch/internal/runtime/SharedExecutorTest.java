package dev.prefetch.internal.runtime;

import static dev.prefetch.internal.runtime.SyntheticFormat.ranges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Producers on executors the reader does not own: pools far smaller than the producers of all open
 * readers, fork-join pools whose workers are also the consumers, virtual threads, and executors
 * that run a task on the thread that submits it. Every read ends, in order and whole.
 */
@Timeout(30)
@ExtendWith(NothingLeaks.class)
class SharedExecutorTest {

  /** Four files of 24 ranges each, their expected batches, read interleaved on {@code pool}. */
  private static void readFourReadersInterleaved(ExecutorService pool, String tag)
      throws Exception {
    List<DataFile> files = new ArrayList<>();
    List<List<Scans.Seen>> expected = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      DataFile file =
          SyntheticFormat.register(
              tag + "-" + i,
              SyntheticFormat.Spec.of(ranges(24, 30)).withPayload(16).withDelays(20, i));
      files.add(file);
      expected.add(Scans.readAll(List.of(file), Scans.single(10)));
    }
    ReadOptions options = Scans.prefetching(8, 2, 10).build();
    try (ReadContext context = ReadContext.builder().executor(pool).build()) {
      List<BatchReader> readers = new ArrayList<>();
      List<List<Scans.Seen>> seen = new ArrayList<>();
      try {
        for (DataFile file : files) {
          readers.add(Readers.open(file, options, context));
          seen.add(new ArrayList<>());
        }
        // One batch of each reader in turn: every reader stays open and half-read while the
        // others need the pool.
        boolean any = true;
        while (any) {
          any = false;
          for (int i = 0; i < readers.size(); i++) {
            RecordBatch batch = readers.get(i).next();
            if (batch != null) {
              seen.get(i).add(Scans.drainOne(batch));
              any = true;
            }
          }
        }
      } finally {
        for (BatchReader reader : readers) {
          reader.close();
        }
      }
      for (int i = 0; i < files.size(); i++) {
        PrefetchOrderTest.assertSameBatches(seen.get(i), expected.get(i), tag + " reader " + i);
      }
    }
  }

  @Test
  void aOneThreadPoolServesFourOpenReadersOfEightProducersEachToTheEnd() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(1, EnginePool.daemon("engine-one"));
    try {
      readFourReadersInterleaved(pool, "one-thread");
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aForkJoinPoolServesReadersWhoseConsumersAreItsOwnWorkers() throws Exception {
    ForkJoinPool pool = new ForkJoinPool(1);
    try {
      Future<?> consumer =
          pool.submit(
              () -> {
                readFourReadersInterleaved(pool, "fork-join");
                return null;
              });
      consumer.get(25, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void theCommonPoolServesReadersWhoseConsumerRunsInIt() throws Exception {
    ForkJoinPool common = ForkJoinPool.commonPool();
    // On two cores the common pool has one worker: the consumer occupies it.
    Future<?> consumer =
        common.submit(
            () -> {
              readFourReadersInterleaved(common, "common");
              return null;
            });
    consumer.get(25, TimeUnit.SECONDS);
    readFourReadersInterleaved(common, "common-outside");
  }

  @Test
  void virtualThreadsServeOpenReadersWhereTheJvmHasThem() throws Exception {
    ExecutorService virtual;
    try {
      virtual =
          (ExecutorService)
              Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (NoSuchMethodException e) {
      assumeTrue(false, "this JVM has no virtual threads");
      return;
    }
    try {
      readFourReadersInterleaved(virtual, "virtual");
    } finally {
      virtual.shutdownNow();
      assertThat(virtual.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aCallerRunsPoolWithOneBusyThreadServesOpenReaders() throws Exception {
    ThreadPoolExecutor pool = EnginePool.oneThreadCallerRuns("engine-caller-runs");
    try {
      readFourReadersInterleaved(pool, "caller-runs");
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void anExecutorThatRunsEveryTaskOnTheSubmittingThreadReadsToTheEnd() throws Exception {
    readFourReadersInterleaved(new DirectExecutor(), "direct");
  }

  /** Runs every task at once on the thread that submits it. */
  private static final class DirectExecutor extends AbstractExecutorService {
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable task) {
      task.run();
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
