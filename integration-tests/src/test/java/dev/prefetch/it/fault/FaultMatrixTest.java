package dev.prefetch.it.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.it.Format;
import dev.prefetch.it.Layout;
import dev.prefetch.it.Layout.Span;
import dev.prefetch.it.Scans;
import dev.prefetch.it.Scans.BatchDigest;
import dev.prefetch.it.Scans.Result;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.FaultInjectingFileSystem.Faults;
import dev.prefetch.testing.FaultInjectingFileSystem.InjectedFault;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
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
 * Faults injected under real Parquet and ORC reads, for both formats and 1 to 8 producers: every
 * read ends with either the documented {@link ReadException} (naming the file and range, with the
 * injected cause) or data equal to a normal read, in bounded time, and leaves no producer thread
 * alive and no stream open.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultMatrixTest {

  @TempDir static Path dir;

  private static final Map<Format, Path> FILES = new EnumMap<>(Format.class);
  private static final Map<Format, Layout> LAYOUTS = new EnumMap<>(Format.class);
  private static final Map<Format, Result> EXPECTED = new EnumMap<>(Format.class);

  /** The same read in batches of {@value #SMALL_BATCH} rows. */
  private static final Map<Format, Result> EXPECTED_SMALL = new EnumMap<>(Format.class);

  private static final int SMALL_BATCH = 100;
  private static ScheduledExecutorService scheduler;

  private ReadContext context;

  @BeforeAll
  static void writeFiles() throws IOException {
    scheduler = Executors.newSingleThreadScheduledExecutor();
    for (Format format : Format.values()) {
      Path file = format.write(Files.createDirectories(dir.resolve(format.name())), 6_000);
      FILES.put(format, file);
      LAYOUTS.put(format, format.layout(file));
      org.apache.hadoop.fs.Path local = new org.apache.hadoop.fs.Path(file.toUri());
      EXPECTED.put(format, Scans.readAll(local, Scans.single(), ReadContext.defaults()));
      EXPECTED_SMALL.put(
          format,
          Scans.readAll(
              local,
              Scans.single().toBuilder().batchSize(SMALL_BATCH).build(),
              ReadContext.defaults()));
    }
  }

  @AfterAll
  static void stopScheduler() {
    scheduler.shutdownNow();
  }

  @BeforeEach
  void setUp() {
    FaultInjectingFileSystem.reset();
    context = ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
  }

  @AfterEach
  void noLeaks() {
    try {
      ReaderThreads.assertNoneAlive();
      FaultInjectingFileSystem.assertAllStreamsClosed();
    } finally {
      FaultInjectingFileSystem.reset();
    }
  }

  static Stream<Arguments> matrix() {
    return Stream.of(Format.values())
        .flatMap(format -> IntStream.rangeClosed(1, 8).mapToObj(p -> Arguments.of(format, p)));
  }

  private static org.apache.hadoop.fs.Path faulty(Format format) {
    return FaultInjectingFileSystem.path(FILES.get(format));
  }

  private static Faults faults(Format format) {
    return FaultInjectingFileSystem.faults(FILES.get(format));
  }

  private BatchReader open(Format format, ReadOptions options) throws IOException {
    return Readers.open(DataFile.of(faulty(format)), options, context);
  }

  /** Whether {@code thrown} or one of its causes is an injected fault. */
  static boolean causedByInjectedFault(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InjectedFault) {
        return true;
      }
    }
    return false;
  }

  /** The read fails with a ReadException naming the file, with the injected cause in it. */
  private static void assertInjectedReadFailure(
      Throwable thrown, Format format, boolean rangeKnown) {
    assertThat(thrown).isInstanceOf(ReadException.class);
    ReadException read = (ReadException) thrown;
    assertThat(read.file().path().toUri().getPath())
        .isEqualTo(FILES.get(format).toAbsolutePath().toString());
    assertThat(read).hasMessageContaining(FILES.get(format).getFileName().toString());
    if (rangeKnown) {
      assertThat(read.range()).isNotNull();
      assertThat(read).hasMessageContaining("range " + read.range().index());
    }
    assertThat(causedByInjectedFault(read)).as("caused by the injected fault: %s", read).isTrue();
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void anIoErrorInOneProducerMidFileIsRaisedWithFileAndRange(Format format, int parallelism)
      throws IOException {
    Span target = LAYOUTS.get(format).middleBlock();
    faults(format).failReadsTouching(target.middle(), target.middle() + 1);
    try (BatchReader reader = open(format, Scans.prefetching(parallelism).build())) {
      List<BatchDigest> seen = new ArrayList<>();
      Throwable thrown = catchThrowable(() -> Scans.drain(reader, seen));
      assertInjectedReadFailure(thrown, format, true);
      new Result(seen).assertPrefixOf(EXPECTED.get(format));
      assertThat(new Result(seen).rows()).isLessThan(EXPECTED.get(format).rows());
    }
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void theKthReadFailingEndsInReadExceptionOrCompleteData(Format format, int parallelism)
      throws IOException {
    Random random = new Random(7919L * parallelism + format.ordinal());
    try (BatchReader reader = open(format, Scans.prefetching(parallelism).build())) {
      long readsAtOpen = faults(format).reads();
      faults(format).failReadNumber(readsAtOpen + 1 + random.nextInt(6));
      List<BatchDigest> seen = new ArrayList<>();
      Throwable thrown = catchThrowable(() -> Scans.drain(reader, seen));
      if (faults(format).failuresInjected() > 0) {
        assertInjectedReadFailure(thrown, format, true);
        new Result(seen).assertPrefixOf(EXPECTED.get(format));
      } else {
        assertThat(thrown).isNull();
        assertThat(new Result(seen)).isEqualTo(EXPECTED.get(format));
      }
    }
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void anIoErrorInTheFooterReadFailsOpenNamingTheFile(Format format, int parallelism) {
    Span tail = LAYOUTS.get(format).tail();
    faults(format).failReadsTouching(tail.from(), tail.to());
    Throwable thrown = catchThrowable(() -> open(format, Scans.prefetching(parallelism).build()));
    assertThat(thrown)
        .isInstanceOf(IOException.class)
        .hasMessageContaining(FILES.get(format).getFileName().toString());
    assertThat(causedByInjectedFault(thrown))
        .as("caused by the injected fault: %s", thrown)
        .isTrue();
  }

  @ParameterizedTest(name = "PARQUET, parallelism {0}")
  @MethodSource("parallelisms")
  void anIoErrorInAPageIndexReadEndsInReadExceptionOrCompleteData(int parallelism)
      throws IOException {
    Layout layout = LAYOUTS.get(Format.PARQUET);
    assertThat(layout.offsetIndexes()).isNotEmpty();
    long from = Long.MAX_VALUE;
    long to = 0;
    for (Span span : layout.columnIndexes()) {
      from = Math.min(from, span.from());
      to = Math.max(to, span.to());
    }
    for (Span span : layout.offsetIndexes()) {
      from = Math.min(from, span.from());
      to = Math.max(to, span.to());
    }
    // Row groups split into page ranges by their OffsetIndex when producers outnumber them.
    ReadOptions options =
        Scans.prefetching(parallelism).property(ParquetOptions.SPLIT_ROW_GROUPS, "true").build();
    List<BatchDigest> seen = new ArrayList<>();
    BatchReader reader = open(Format.PARQUET, options);
    // Armed after open: the footer read at open may cover the indexes of a small file; what is
    // tested here are the index reads of the producers.
    faults(Format.PARQUET).failReadsTouching(from, to);
    Throwable thrown =
        catchThrowable(
            () -> {
              try (reader) {
                Scans.drain(reader, seen);
              }
            });
    if (thrown != null) {
      assertInjectedReadFailure(thrown, Format.PARQUET, false);
      new Result(seen).assertPrefixOf(EXPECTED.get(Format.PARQUET));
    } else {
      assertThat(new Result(seen)).isEqualTo(EXPECTED.get(Format.PARQUET));
    }
  }

  static IntStream parallelisms() {
    return IntStream.rangeClosed(1, 8);
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void anErrorOnCloseEndsInReadExceptionOrCompleteDataAndClosesEveryStream(
      Format format, int parallelism) throws IOException {
    // Small queues keep producers from reading their ranges to the end (and closing their
    // streams) before the fault is armed.
    BatchReader reader = open(format, Scans.prefetching(parallelism).queueCapacity(1).build());
    faults(format).failOnClose();
    List<BatchDigest> seen = new ArrayList<>();
    Throwable thrown = catchThrowable(() -> Scans.drain(reader, seen));
    if (thrown != null) {
      // A producer whose stream failed to close reports it like any other failure.
      assertInjectedReadFailure(thrown, format, false);
      new Result(seen).assertPrefixOf(EXPECTED.get(format));
    } else {
      assertThat(new Result(seen)).isEqualTo(EXPECTED.get(format));
    }
    Throwable onClose = catchThrowable(reader::close);
    if (onClose != null) {
      assertThat(onClose).isInstanceOf(IOException.class);
      assertThat(causedByInjectedFault(onClose)).isTrue();
    }
    assertThat(faults(format).failuresInjected()).isPositive();
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void anErrorWhileOtherProducersAreBlockedOnFullQueuesStopsThemAll(Format format, int parallelism)
      throws Exception {
    Span last = LAYOUTS.get(format).lastBlock();
    ReadOptions options =
        Scans.prefetching(parallelism).queueCapacity(1).batchSize(SMALL_BATCH).build();
    // The fault is armed before the reader opens, since its producers start at once and one that
    // claims the last range could read it before a fault armed after the open. Opening reads the
    // footer, which a small file's last block shares bytes with: a first open puts it in the cache.
    context =
        ReadContext.builder()
            .configuration(FaultInjectingFileSystem.configuration())
            .cache(MemoryCache.builder().maximumBytes(8L << 20).build())
            .build();
    open(format, options).close();
    faults(format).failReadsTouching(last.from(), last.to());
    try (BatchReader reader = open(format, options)) {
      List<BatchDigest> seen = new ArrayList<>();
      Throwable thrown =
          catchThrowable(
              () -> {
                for (int i = 0; ; i++) {
                  int before = seen.size();
                  Scans.take(reader, 1, seen);
                  if (seen.size() == before) {
                    return;
                  }
                  if (i < 3) {
                    Thread.sleep(20); // slow consumer: every producer's queue fills and it blocks
                  }
                }
              });
      assertInjectedReadFailure(thrown, format, true);
      new Result(seen).assertPrefixOf(EXPECTED_SMALL.get(format));
    }
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void closingEarlyAtRandomPointsReleasesEverything(Format format, int parallelism)
      throws IOException {
    Random random = new Random(1000L * parallelism + format.ordinal());
    int total = EXPECTED.get(format).batches().size();
    for (int round = 0; round < 4; round++) {
      ReadOptions options =
          Scans.prefetching(parallelism).queueCapacity(1 + random.nextInt(3)).build();
      List<BatchDigest> seen = new ArrayList<>();
      try (BatchReader reader = open(format, options)) {
        Scans.take(reader, random.nextInt(total), seen);
      }
      new Result(seen).assertPrefixOf(EXPECTED.get(format));
      ReaderThreads.assertNoneAlive();
      FaultInjectingFileSystem.assertAllStreamsClosed();
    }
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void anInterruptedConsumerGetsInterruptedIoExceptionAndKeepsItsFlag(
      Format format, int parallelism) throws Exception {
    Layout layout = LAYOUTS.get(format);
    Faults faults = faults(format);
    // Reads of the first block wait, so the consumer must wait in next() for its first batch.
    // (The block lies well before the tail that open() reads.)
    Span first = layout.blocks().get(0);
    assertThat(first.to()).isLessThan(layout.length() - (64 << 10));
    faults.blockReadsTouching(first.from(), first.to());
    BatchReader reader = open(format, Scans.prefetching(parallelism).build());
    Thread consumer = Thread.currentThread();
    java.util.concurrent.Future<?> interrupter =
        scheduler.submit(
            () -> {
              while (faults.blockedReads() == 0) {
                Thread.sleep(1);
              }
              Thread.sleep(50);
              consumer.interrupt();
              return null;
            });
    try {
      Throwable thrown = catchThrowable(() -> Scans.drain(reader, new ArrayList<>()));
      assertThat(thrown).isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      faults.release();
      try {
        interrupter.get(10, TimeUnit.SECONDS); // its interrupt must not reach a later test
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        interrupter.cancel(true);
      } catch (InterruptedException e) {
        // the interrupt it sent; cleared below
      }
      Thread.interrupted();
      faults.release();
      reader.close();
    }
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void shortReadsStillGiveTheSameData(Format format, int parallelism) throws IOException {
    faults(format).shortReads(511);
    Result result = Scans.readAll(faulty(format), Scans.prefetching(parallelism).build(), context);
    assertThat(result).isEqualTo(EXPECTED.get(format));
  }

  @ParameterizedTest(name = "{0}, parallelism {1}")
  @MethodSource("matrix")
  void aFileTruncatedInTheMiddleFailsNamingTheFile(Format format, int parallelism) {
    faults(format).truncateTo(LAYOUTS.get(format).middleBlock().middle());
    Throwable thrown =
        catchThrowable(
            () -> Scans.readAll(faulty(format), Scans.prefetching(parallelism).build(), context));
    assertThat(thrown)
        .isInstanceOf(IOException.class)
        .hasMessageContaining(FILES.get(format).getFileName().toString());
  }
}
