package dev.prefetch.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.it.Scans;
import dev.prefetch.it.TestFiles;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many readers at once on one shared producer executor and one metadata cache, thousands of opens
 * of Parquet and ORC files, a third of them closed early at a random batch: every full read returns
 * the right data, and afterwards the JVM's thread count and open file descriptors are back where
 * they started.
 *
 * <p>Not in the default run. Run it, after installing the other modules, with {@code mvn -B -o
 * test-compile surefire:test@default-test -pl integration-tests -Dtest=SoakTest -Dgroups=soak
 * -Dtest.excludedGroups=none} ({@code -Dsoak.opens=N} changes the number of opens, default 4000).
 */
@Tag("soak")
class SoakTest {

  @TempDir Path dir;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void thousandsOfReadsOnASharedExecutorAndCacheLeaveNoThreadOrDescriptorBehind() throws Exception {
    int opens = Integer.getInteger("soak.opens", 4000);
    int clients = 8;
    List<Path> files = new ArrayList<>();
    files.add(
        TestFiles.parquet(
            dir.resolve("flat.parquet"),
            TestFiles.ParquetVariant.FLAT_SNAPPY_DICTIONARY_V1,
            TestFiles.DEFAULT_ROWS,
            false));
    files.add(
        TestFiles.parquet(
            dir.resolve("nested.parquet"),
            TestFiles.ParquetVariant.NESTED_UNCOMPRESSED_PLAIN_V2,
            TestFiles.DEFAULT_ROWS,
            false));
    files.add(
        TestFiles.orc(
            dir.resolve("flat.orc"), TestFiles.OrcVariant.FLAT_ZLIB, TestFiles.DEFAULT_ROWS));
    files.add(
        TestFiles.orc(
            dir.resolve("nested.orc"), TestFiles.OrcVariant.NESTED_NONE, TestFiles.DEFAULT_ROWS));
    List<String> expected = new ArrayList<>();
    for (Path file : files) {
      expected.add(checksum(file, Scans.single(), ReadContext.defaults(), -1));
    }

    MemoryCache cache = MemoryCache.builder().maximumBytes(64L << 20).build();
    AtomicInteger producerIds = new AtomicInteger();
    ExecutorService producers =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "soak-producer-" + producerIds.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    ExecutorService clientPool = Executors.newFixedThreadPool(clients);
    ReadContext shared = ReadContext.builder().executor(producers).cache(cache).build();
    // Warm up class loading (which opens jars) before the baseline is taken.
    for (int i = 0; i < files.size(); i++) {
      assertThat(checksum(files.get(i), Scans.prefetching(2).build(), shared, -1))
          .isEqualTo(expected.get(i));
    }
    System.gc();
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    long descriptorsBefore = descriptors();

    AtomicLong full = new AtomicLong();
    AtomicLong early = new AtomicLong();
    long start = System.nanoTime();
    List<Future<?>> work = new ArrayList<>();
    AtomicInteger next = new AtomicInteger();
    for (int c = 0; c < clients; c++) {
      long seed = 31L * c + 7;
      work.add(
          clientPool.submit(
              () -> {
                Random random = new Random(seed);
                for (int i; (i = next.getAndIncrement()) < opens; ) {
                  int which = random.nextInt(files.size());
                  ReadOptions options =
                      random.nextInt(5) == 0
                          ? Scans.single()
                          : Scans.prefetching(1 + random.nextInt(6))
                              .queueCapacity(1 + random.nextInt(4))
                              .build();
                  boolean closeEarly = random.nextInt(3) == 0;
                  String sum =
                      checksum(
                          files.get(which), options, shared, closeEarly ? random.nextInt(12) : -1);
                  if (closeEarly) {
                    early.incrementAndGet();
                  } else {
                    assertThat(sum).isEqualTo(expected.get(which));
                    full.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    for (Future<?> future : work) {
      future.get();
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    clientPool.shutdown();
    assertThat(clientPool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    producers.shutdown();
    assertThat(producers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    ReaderThreads.assertNoneAlive();
    // Pool threads end asynchronously after termination is signalled; give them a moment.
    int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
    for (int i = 0; i < 100 && threadsAfter > threadsBefore; i++) {
      Thread.sleep(50);
      threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
    }
    System.gc();
    long descriptorsAfter = descriptors();
    System.out.println(
        "Soak: "
            + opens
            + " opens ("
            + full
            + " full reads, "
            + early
            + " closed early) by "
            + clients
            + " clients in "
            + seconds
            + " s; threads before "
            + threadsBefore
            + ", after "
            + threadsAfter
            + "; open file descriptors before "
            + descriptorsBefore
            + ", after "
            + descriptorsAfter
            + "; cache "
            + cache.stats());
    assertThat(threadsAfter).isLessThanOrEqualTo(threadsBefore);
    assertThat(descriptorsAfter).isLessThanOrEqualTo(descriptorsBefore);
  }

  /** Reads {@code file}, or only {@code batches} batches of it when that is not negative. */
  private static String checksum(Path file, ReadOptions options, ReadContext context, int batches)
      throws IOException {
    try (BatchReader reader = Readers.open(DataFile.of(file), options, context)) {
      Checksum checksum = new Checksum(reader.schema().size());
      int read = 0;
      for (RecordBatch batch;
          (batches < 0 || read < batches) && (batch = reader.next()) != null;
          read++) {
        checksum.add(batch);
      }
      return checksum.value();
    }
  }

  private static long descriptors() throws IOException {
    try (var entries = Files.list(Path.of("/proc/self/fd"))) {
      return entries.count();
    }
  }
}
