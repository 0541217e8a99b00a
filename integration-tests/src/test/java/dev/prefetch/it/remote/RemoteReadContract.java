package dev.prefetch.it.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.it.Scans;
import dev.prefetch.it.Scans.Result;
import dev.prefetch.it.TestFiles;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.ReaderThreads;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What reading from remote storage must do, whatever the storage: the same batches as a local
 * read of the same file, with prefetching, for Parquet and ORC; the metadata cache spares the
 * second open its footer read; a missing file is a FileNotFoundException. A subclass starts one
 * server for all its tests and uploads the files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class RemoteReadContract {

  /** Local files and their remote paths, by name. */
  private final Map<String, Path> locals = new LinkedHashMap<>();
  private final Map<String, org.apache.hadoop.fs.Path> remotes = new LinkedHashMap<>();
  private final Map<String, Result> expected = new LinkedHashMap<>();

  /** Starts the server. */
  abstract void startServer() throws Exception;

  /** Stops the server and releases its clients. */
  abstract void stopServer() throws Exception;

  /** The configuration reaching the server. */
  abstract Configuration configuration();

  /** Puts a local file on the server as {@code name}; returns its remote path. */
  abstract org.apache.hadoop.fs.Path upload(Path local, String name) throws IOException;

  /** A path on the server where nothing is. */
  abstract org.apache.hadoop.fs.Path missing();

  @BeforeAll
  void start() throws Exception {
    Path dir = Files.createTempDirectory("prefetch-remote");
    startServer();
    locals.put("flat.parquet", TestFiles.parquet(dir.resolve("flat.parquet"),
        TestFiles.ParquetVariant.FLAT_SNAPPY_DICTIONARY_V1, TestFiles.DEFAULT_ROWS, false));
    locals.put("nested.parquet", TestFiles.parquet(dir.resolve("nested.parquet"),
        TestFiles.ParquetVariant.NESTED_SNAPPY_DICTIONARY_V1, TestFiles.DEFAULT_ROWS, false));
    locals.put("flat.orc", TestFiles.orc(dir.resolve("flat.orc"), TestFiles.OrcVariant.FLAT_ZLIB,
        TestFiles.DEFAULT_ROWS));
    locals.put("nested.orc", TestFiles.orc(dir.resolve("nested.orc"),
        TestFiles.OrcVariant.NESTED_ZLIB, TestFiles.DEFAULT_ROWS));
    for (Map.Entry<String, Path> file : locals.entrySet()) {
      remotes.put(file.getKey(), upload(file.getValue(), file.getKey()));
      expected.put(file.getKey(), Scans.readAll(
          new org.apache.hadoop.fs.Path(file.getValue().toUri()), Scans.single(),
          ReadContext.defaults()));
    }
  }

  @AfterAll
  void stop() throws Exception {
    stopServer();
  }

  @AfterEach
  void noProducerLeft() {
    ReaderThreads.assertNoneAlive();
  }

  private ReadContext context(MemoryCache cache, AtomicReference<ReaderMetrics> metrics) {
    ReadContext.Builder context = ReadContext.builder().configuration(configuration());
    if (cache != null) {
      context.cache(cache);
    }
    if (metrics != null) {
      context.metricsSink(metrics::set);
    }
    return context.build();
  }

  @Test
  void prefetchingRemoteReadsEqualTheLocalReadForEveryFile() throws IOException {
    for (String name : remotes.keySet()) {
      for (int parallelism : new int[] {1, 4}) {
        AtomicReference<ReaderMetrics> metrics = new AtomicReference<>();
        Result result = Scans.readAll(remotes.get(name), Scans.prefetching(parallelism).build(),
            context(null, metrics));
        assertThat(result).as("%s, parallelism %d", name, parallelism)
            .isEqualTo(expected.get(name));
        assertThat(metrics.get().prefetch()).as(name).isTrue();
        assertThat(metrics.get().bytesRead()).as(name).isPositive();
      }
    }
  }

  @Test
  void theSingleReaderOnRemoteStorageEqualsTheLocalRead() throws IOException {
    for (String name : remotes.keySet()) {
      assertThat(Scans.readAll(remotes.get(name), Scans.single(), context(null, null)))
          .as(name).isEqualTo(expected.get(name));
    }
  }

  @Test
  void aSecondOpenWithTheMetadataCacheReadsNoFooter() throws IOException {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16L << 20).build();
    for (String name : remotes.keySet()) {
      List<ReaderMetrics> runs = new ArrayList<>();
      for (int run = 0; run < 2; run++) {
        AtomicReference<ReaderMetrics> metrics = new AtomicReference<>();
        Result result = Scans.readAll(remotes.get(name), Scans.prefetching(2).build(),
            context(cache, metrics));
        assertThat(result).as(name).isEqualTo(expected.get(name));
        runs.add(metrics.get());
      }
      assertThat(runs.get(0).counter(ScanCounters.FOOTER_READS)).as(name).isPositive();
      assertThat(runs.get(1).counter(ScanCounters.FOOTER_READS)).as(name).isZero();
      assertThat(runs.get(1).counter(ScanCounters.FOOTER_BYTES_READ)).as(name).isZero();
    }
    assertThat(cache.stats().hits()).isPositive();
  }

  @Test
  void aMissingRemoteFileIsFileNotFoundNamingIt() {
    Throwable thrown = catchThrowable(() -> {
      try (BatchReader reader = Readers.open(DataFile.of(missing()),
          Scans.prefetching(2).build(), context(null, null))) {
        reader.next();
      }
    });
    assertThat(thrown).isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining(missing().getName());
  }
}
