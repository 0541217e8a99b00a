package dev.prefetch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheStats;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata cache end to end on real files of one format, shared by every format's test: what a
 * shared {@link MemoryCache} saves (the footer or tail is read from the file once, counted by the
 * filesystem and by {@link ScanCounters#FOOTER_READS}), and that it never serves a stale, failed or
 * foreign one. A format's test extends this class and writes its files.
 */
@Timeout(60)
public abstract class MetadataCacheContract {

  /**
   * Writes a file of {@code rows} rows, replacing {@code file}. Variants give different contents: 0
   * the file under test, 1 its rewrite, 2 another file.
   */
  protected abstract Path write(Path file, int rows, int variant) throws IOException;

  /** The file name extension of the format, with its dot. */
  protected abstract String extension();

  /** Format options every read of these tests uses (none by default). */
  protected ReadOptions.Builder formatOptions(ReadOptions.Builder options) {
    return options;
  }

  @TempDir Path dir;

  private Path local;
  private MemoryCache cache;
  private Configuration conf;

  @BeforeEach
  void writeFile() throws IOException {
    local = write(dir.resolve("data" + extension()), 6000, 0);
    cache = MemoryCache.builder().maximumBytes(1 << 20).build();
    conf = FaultInjectingFileSystem.register(CountingFileSystem.configuration());
  }

  @AfterEach
  void forgetFaults() {
    FaultInjectingFileSystem.faults(local).clear();
  }

  private ReadContext context() {
    return ReadContext.builder().configuration(conf).cache(cache).build();
  }

  private static DataFile counting(Path local) {
    return DataFile.of(CountingFileSystem.path(local));
  }

  /** Opens and closes (plans only, reads no data on the single path): the footer's cost alone. */
  private ReaderMetrics openOnly(DataFile file, ReadContext context) throws IOException {
    try (BatchReader reader =
        Readers.open(file, formatOptions(byParts().prefetchEnabled(false)).build(), context)) {
      return reader.metrics();
    }
  }

  /**
   * Options that read the file by parts: its footer or tail on its own, as the contract counts it
   * (a file this small would otherwise be read whole, footer and data in one request).
   */
  private static ReadOptions.Builder byParts() {
    return ReadOptions.builder().wholeFileBytes(0);
  }

  /** The scan's checksum and its footer (tail) reads. */
  private record Scan(String checksum, long rows, long tailReads, long tailBytes) {}

  private Scan scan(DataFile file, ReadContext context) throws IOException {
    ReadOptions options =
        formatOptions(byParts().minReadBytes(0).parallelism(3).batchSize(1000)).build();
    try (BatchReader reader = Readers.open(file, options, context)) {
      Checksum checksum = new Checksum(reader.schema().fields().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checksum.add(batch);
      }
      ReaderMetrics metrics = reader.metrics();
      return new Scan(
          checksum.value(),
          checksum.rows(),
          metrics.counter(ScanCounters.FOOTER_READS),
          metrics.counter(ScanCounters.FOOTER_BYTES_READ));
    }
  }

  @Test
  public void aSecondOpenWithASharedCacheReadsNoMetadataBytesAndReturnsIdenticalData()
      throws IOException {
    DataFile file = counting(local);
    try (ReadContext context = context()) {
      CountingFileSystem.reset(local);
      ReaderMetrics cold = openOnly(file, context);
      long coldBytes = CountingFileSystem.counts(local).bytesRead();
      assertThat(cold.counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
      assertThat(coldBytes)
          .as("bytes of the footer or tail region read by the first open")
          .isPositive()
          .isEqualTo(cold.counter(ScanCounters.FOOTER_BYTES_READ));

      CountingFileSystem.reset(local);
      ReaderMetrics warm = openOnly(file, context);
      assertThat(CountingFileSystem.counts(local).bytesRead())
          .as("bytes read from the file by an open with the metadata cached")
          .isZero();
      assertThat(warm.counter(ScanCounters.FOOTER_READS)).isZero();
      assertThat(warm.counter(ScanCounters.FOOTER_BYTES_READ)).isZero();

      Scan cached = scan(file, context);
      assertThat(cached.tailReads()).isZero();
      assertThat(cached.tailBytes()).isZero();
      Scan uncached = scan(file, ReadContext.builder().configuration(conf).build());
      assertThat(uncached.tailReads()).isEqualTo(1);
      assertThat(cached.rows()).isEqualTo(6000);
      assertThat(cached.checksum()).isEqualTo(uncached.checksum());
    }
    CacheStats stats = cache.stats();
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.loads()).isEqualTo(1);
    assertThat(stats.hits()).isGreaterThanOrEqualTo(2);
    assertThat(cache.sizeInBytes()).isPositive().isLessThan(Files.size(local));
  }

  @Test
  public void aRewrittenFileIsReadAgainWhetherItsLengthOrOnlyItsModificationTimeChanged()
      throws IOException {
    DataFile file = counting(local);
    try (ReadContext context = context()) {
      Scan before = scan(file, context);
      assertThat(before.tailReads()).isEqualTo(1);
      assertThat(scan(file, context).tailReads()).isZero();

      write(local, 4000, 1); // new content, new length
      Scan rewritten = scan(file, context);
      assertThat(rewritten.tailReads()).as("tail reads after a rewrite").isEqualTo(1);
      assertThat(rewritten.rows()).isEqualTo(4000);
      assertThat(rewritten.checksum()).isNotEqualTo(before.checksum());

      // Same bytes, same length, a later modification time: another version for the cache.
      FileTime mtime = Files.getLastModifiedTime(local);
      Files.setLastModifiedTime(local, FileTime.fromMillis(mtime.toMillis() + 60_000));
      Scan touched = scan(file, context);
      assertThat(touched.tailReads()).as("tail reads after a new mtime").isEqualTo(1);
      assertThat(touched.checksum()).isEqualTo(rewritten.checksum());
      assertThat(scan(file, context).tailReads()).isZero();
    }
    assertThat(cache.stats().misses()).isEqualTo(3);
  }

  @Test
  public void aFileRewrittenWhileItsFooterIsReadIsCachedUnderTheVersionReadNotTheOneStatedBefore()
      throws IOException {
    Path otherPath = write(dir.resolve("other" + extension()), 4000, 1);
    byte[] original = Files.readAllBytes(local);
    FileTime originalTime = Files.getLastModifiedTime(local);
    byte[] rewrite = Files.readAllBytes(otherPath);
    DataFile file = DataFile.of(FaultInjectingFileSystem.path(local));
    Scan expectedOriginal;
    Scan expectedRewrite;
    try (ReadContext uncached = ReadContext.builder().configuration(conf).build()) {
      expectedOriginal = scan(file, uncached);
      expectedRewrite = scan(DataFile.of(FaultInjectingFileSystem.path(otherPath)), uncached);
    }
    try (ReadContext context = context()) {
      // The planner takes the original's status, then opens the file to read its footer: the
      // rewrite lands in between.
      FaultInjectingFileSystem.faults(local).onNextOpen(() -> Files.write(local, rewrite));
      Scan during = scan(file, context);
      assertThat(during.checksum())
          .as("the scan during the rewrite")
          .isEqualTo(expectedRewrite.checksum());
      assertThat(during.rows()).isEqualTo(4000);

      // The original comes back with its length and modification time, the identity the status
      // before the rewrite named: the cache must not answer with the rewrite's footer.
      Files.write(local, original);
      Files.setLastModifiedTime(local, originalTime);
      Scan again = scan(file, context);
      assertThat(again.checksum()).as("the original again").isEqualTo(expectedOriginal.checksum());
      assertThat(again.rows()).isEqualTo(6000);
    }
  }

  @Test
  public void invalidatingTheFootersKeyMakesTheNextOpenReadItAgain() throws IOException {
    DataFile file = counting(local);
    try (ReadContext context = context()) {
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isZero();

      org.apache.hadoop.fs.Path path = file.path();
      FileIdentity identity = FileIdentity.of(path.getFileSystem(conf), path);
      cache.invalidate(CacheKey.footer(identity));
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isZero();

      cache.invalidateAll();
      assertThat(cache.sizeInBytes()).isZero();
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
    }
  }

  @Test
  public void evictionByBytesIsCountedAndTheEvictedFooterIsReadAgain() throws IOException {
    Path other = write(dir.resolve("other" + extension()), 6000, 2);
    MemoryCache probe = MemoryCache.builder().maximumBytes(1 << 20).build();
    try (ReadContext context = ReadContext.builder().configuration(conf).cache(probe).build()) {
      openOnly(counting(local), context);
    }
    long tailBytes = probe.sizeInBytes();
    try (ReadContext context = ReadContext.builder().configuration(conf).cache(probe).build()) {
      openOnly(counting(other), context);
    }
    long bothBytes = probe.sizeInBytes();
    assertThat(bothBytes).isGreaterThan(tailBytes);

    // Room for either tail, not both.
    cache = MemoryCache.builder().maximumBytes(bothBytes - 1).build();
    try (ReadContext context = context()) {
      assertThat(openOnly(counting(local), context).counter(ScanCounters.FOOTER_READS))
          .isEqualTo(1);
      assertThat(openOnly(counting(other), context).counter(ScanCounters.FOOTER_READS))
          .isEqualTo(1);
      CacheStats stats = cache.stats();
      assertThat(stats.evictions()).isEqualTo(1);
      assertThat(stats.evictedBytes()).isEqualTo(tailBytes);
      assertThat(cache.sizeInBytes()).isEqualTo(bothBytes - tailBytes);
      // The evicted tail (the least recently used) is read again; the other one is not.
      assertThat(openOnly(counting(local), context).counter(ScanCounters.FOOTER_READS))
          .isEqualTo(1);
    }
    assertThat(cache.stats().evictions()).isEqualTo(2);
  }

  @Test
  public void sixteenThreadsOpeningTheSameFileAtOnceLoadItsFooterOnce() throws Exception {
    DataFile file = DataFile.of(FaultInjectingFileSystem.path(local));
    long length = Files.size(local);
    // Hold the first tail read until every opener has arrived, so all 16 really overlap.
    FaultInjectingFileSystem.faults(local).blockReadsTouching(length - 8, length);
    AtomicLong tailReads = new AtomicLong();
    List<Throwable> failures;
    try (ReadContext context = context()) {
      failures =
          openAtOnce(
              16,
              () ->
                  tailReads.addAndGet(openOnly(file, context).counter(ScanCounters.FOOTER_READS)));
    }
    assertThat(failures).isEmpty();
    assertThat(tailReads.get()).as("tail reads over the 16 readers").isEqualTo(1);
    CacheStats stats = cache.stats();
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.loads()).isEqualTo(1);
    assertThat(stats.hits()).isEqualTo(15);
  }

  @Test
  public void aFailedFooterLoadReachesEveryWaiterNamingTheFileAndIsNotCached() throws Exception {
    DataFile file = DataFile.of(FaultInjectingFileSystem.path(local));
    long length = Files.size(local);
    FaultInjectingFileSystem.faults(local)
        .blockReadsTouching(length - 8, length)
        .failReadsTouching(length - 8, length);
    try (ReadContext context = context()) {
      List<Throwable> failures = openAtOnce(8, () -> openOnly(file, context));
      assertThat(failures)
          .hasSize(8)
          .allSatisfy(
              t ->
                  assertThat(t)
                      .isInstanceOf(IOException.class)
                      .hasMessageContaining("data" + extension())
                      .hasStackTraceContaining(
                          FaultInjectingFileSystem.InjectedFault.class.getSimpleName()));
      CacheStats stats = cache.stats();
      assertThat(stats.loadFailures()).isEqualTo(1);
      assertThat(stats.loads()).isZero();
      assertThat(cache.sizeInBytes()).isZero();

      FaultInjectingFileSystem.faults(local).clear();
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS))
          .as("the failure was not cached")
          .isEqualTo(1);
      assertThat(openOnly(file, context).counter(ScanCounters.FOOTER_READS)).isZero();
    }
  }

  @Test
  public void aFileWithoutAnIdentityBypassesTheCacheAndCountsIt() throws IOException {
    // A filesystem that reports no modification time cannot tell a rewrite apart.
    Files.setLastModifiedTime(local, FileTime.fromMillis(0));
    DataFile file = counting(local);
    try (ReadContext context = context()) {
      for (int i = 0; i < 2; i++) {
        CountingFileSystem.reset(local);
        ReaderMetrics metrics = openOnly(file, context);
        assertThat(metrics.counter(ScanCounters.FOOTER_READS)).isEqualTo(1);
        assertThat(CountingFileSystem.counts(local).bytesRead()).isPositive();
      }
      assertThat(scan(file, context).rows()).isEqualTo(6000);
    }
    CacheStats stats = cache.stats();
    assertThat(stats.bypasses()).isGreaterThanOrEqualTo(3);
    assertThat(stats.misses()).isZero();
    assertThat(stats.hits()).isZero();
    assertThat(cache.sizeInBytes()).isZero();
  }

  private static boolean insideTheCache(Thread thread) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getClassName().equals(MemoryCache.class.getName())) {
        return true;
      }
    }
    return false;
  }

  /** Waits until every thread is parked: one in the blocked tail read, the rest on its load. */
  /** What one of the concurrent openers does. */
  private interface Opening {
    void open() throws Exception;
  }

  /**
   * Runs {@code count} openers at once, releases the held reads of the local file once every one of
   * them waits, and joins them; returns what they threw.
   */
  private List<Throwable> openAtOnce(int count, Opening opening) throws InterruptedException {
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Thread> openers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Thread opener =
          new Thread(
              () -> {
                try {
                  opening.open();
                } catch (Throwable t) {
                  failures.add(t);
                }
              },
              "opener-" + i);
      openers.add(opener);
      opener.start();
    }
    awaitAllWaiting(openers);
    FaultInjectingFileSystem.faults(local).release();
    for (Thread opener : openers) {
      opener.join(20_000);
    }
    return failures;
  }

  private static void awaitAllWaiting(List<Thread> threads) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      int waiting = 0;
      for (Thread thread : threads) {
        Thread.State state = thread.getState();
        if ((state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
            && insideTheCache(thread)) {
          waiting++;
        }
      }
      if (waiting == threads.size()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + waiting + " of " + threads.size() + " openers wait");
      }
      Thread.sleep(5);
    }
  }
}
