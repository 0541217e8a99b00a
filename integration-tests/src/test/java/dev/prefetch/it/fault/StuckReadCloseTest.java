package dev.prefetch.it.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.Readers;
import dev.prefetch.it.Format;
import dev.prefetch.it.Layout;
import dev.prefetch.it.Layout.Span;
import dev.prefetch.it.Scans;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.FaultInjectingFileSystem.Faults;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A producer stuck in a read that ignores interrupts (a dead connection, a kernel call): close()
 * returns within a second, by closing the stuck stream from the closing thread, and leaves no
 * stream open and no producer thread alive. Real Parquet and ORC files, a fault-injecting
 * filesystem, the reader's own threads and an executor.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StuckReadCloseTest {

  @TempDir static Path dir;

  private static final Map<Format, Path> FILES = new EnumMap<>(Format.class);
  private static final Map<Format, Layout> LAYOUTS = new EnumMap<>(Format.class);
  private static ExecutorService pool;

  @BeforeAll
  static void writeFiles() throws IOException {
    pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "engine-stuck");
              thread.setDaemon(true);
              return thread;
            });
    for (Format format : Format.values()) {
      Path file = format.write(Files.createDirectories(dir.resolve(format.name())), 6_000);
      FILES.put(format, file);
      LAYOUTS.put(format, format.layout(file));
    }
  }

  @AfterAll
  static void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
  }

  @BeforeEach
  void setUp() {
    FaultInjectingFileSystem.reset();
  }

  @AfterEach
  void reset() {
    FaultInjectingFileSystem.reset();
  }

  static Stream<Arguments> cases() {
    return Stream.of(Format.values())
        .flatMap(format -> Stream.of(Arguments.of(format, false), Arguments.of(format, true)));
  }

  @ParameterizedTest(name = "{0}, executor {1}")
  @MethodSource("cases")
  void closeReturnsWithinASecondWhileAProducerHangsInAReadThatIgnoresInterrupts(
      Format format, boolean executor) throws Exception {
    Layout layout = LAYOUTS.get(format);
    Span first = layout.blocks().get(0);
    assertThat(first.to()).isLessThan(layout.length() - (64 << 10)); // not the tail open() reads
    Faults faults = FaultInjectingFileSystem.faults(FILES.get(format));
    faults.hangReadsTouching(first.from(), first.to());
    ReadContext.Builder context =
        ReadContext.builder().configuration(FaultInjectingFileSystem.configuration());
    if (executor) {
      context.executor(pool);
    }
    try {
      BatchReader reader =
          Readers.open(
              DataFile.of(FaultInjectingFileSystem.path(FILES.get(format))),
              Scans.prefetching(4).queueCapacity(1).build(),
              context.build());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (faults.hungReads() == 0) {
        assertThat(System.nanoTime()).as("no read hung").isLessThan(deadline);
        Thread.sleep(1);
      }
      long start = System.nanoTime();
      reader.close();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(millis).as("close took %d ms", millis).isLessThan(1000);
      assertThat(reader.metrics().producersAbandoned()).as("abandoned producers").isZero();
      FaultInjectingFileSystem.assertAllStreamsClosed();
      ReaderThreads.assertNoneAlive();
    } finally {
      faults.release();
    }
  }
}
