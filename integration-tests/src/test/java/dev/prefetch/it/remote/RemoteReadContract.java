package dev.prefetch.it.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * What reading from remote storage must do, whatever the storage: the same batches as a local read
 * of the same file, with prefetching, for Parquet and ORC; the metadata cache spares the second
 * open its footer read; a missing file is a FileNotFoundException. A subclass starts one server for
 * all its tests and uploads the files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class RemoteReadContract {

  private static final ObjectMapper JSON = new ObjectMapper();

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
    locals.put(
        "flat.parquet",
        TestFiles.parquet(
            dir.resolve("flat.parquet"),
            TestFiles.ParquetVariant.FLAT_SNAPPY_DICTIONARY_V1,
            TestFiles.DEFAULT_ROWS,
            false));
    locals.put(
        "nested.parquet",
        TestFiles.parquet(
            dir.resolve("nested.parquet"),
            TestFiles.ParquetVariant.NESTED_SNAPPY_DICTIONARY_V1,
            TestFiles.DEFAULT_ROWS,
            false));
    locals.put(
        "flat.orc",
        TestFiles.orc(
            dir.resolve("flat.orc"), TestFiles.OrcVariant.FLAT_ZLIB, TestFiles.DEFAULT_ROWS));
    locals.put(
        "nested.orc",
        TestFiles.orc(
            dir.resolve("nested.orc"), TestFiles.OrcVariant.NESTED_ZLIB, TestFiles.DEFAULT_ROWS));
    for (Map.Entry<String, Path> file : locals.entrySet()) {
      remotes.put(file.getKey(), upload(file.getValue(), file.getKey()));
      expected.put(
          file.getKey(),
          Scans.readAll(
              new org.apache.hadoop.fs.Path(file.getValue().toUri()),
              Scans.single(),
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
        Result result =
            Scans.readAll(
                remotes.get(name), Scans.prefetching(parallelism).build(), context(null, metrics));
        assertThat(result)
            .as("%s, parallelism %d", name, parallelism)
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
          .as(name)
          .isEqualTo(expected.get(name));
    }
  }

  @Test
  void aSecondOpenWithTheMetadataCacheReadsNoFooter() throws IOException {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16L << 20).build();
    for (String name : remotes.keySet()) {
      List<ReaderMetrics> runs = new ArrayList<>();
      for (int run = 0; run < 2; run++) {
        AtomicReference<ReaderMetrics> metrics = new AtomicReference<>();
        Result result =
            Scans.readAll(remotes.get(name), Scans.prefetching(2).build(), context(cache, metrics));
        assertThat(result).as(name).isEqualTo(expected.get(name));
        runs.add(metrics.get());
      }
      assertThat(runs.get(0).counter(ScanCounters.FOOTER_READS)).as(name).isPositive();
      assertThat(runs.get(1).counter(ScanCounters.FOOTER_READS)).as(name).isZero();
      assertThat(runs.get(1).counter(ScanCounters.FOOTER_BYTES_READ)).as(name).isZero();
    }
    assertThat(cache.stats().hits()).isPositive();
  }

  /** Runs the command line in this process; returns its exit code, stdout and stderr. */
  private static String[] cli(List<String> args) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int code;
    try (java.io.PrintStream o =
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
        java.io.PrintStream e =
            new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)) {
      code = dev.prefetch.cli.PrefetchScan.run(args.toArray(new String[0]), o, e);
    }
    return new String[] {
      Integer.toString(code),
      out.toString(java.nio.charset.StandardCharsets.UTF_8),
      err.toString(java.nio.charset.StandardCharsets.UTF_8)
    };
  }

  /**
   * The command line's view of this server: every {@code fs.*} setting of {@link #configuration()}
   * that a fresh configuration lacks (S3A endpoint and credentials, or fs.defaultFS), as {@code
   * --conf} options, and the name of {@code remote} on it: the path alone when it lies on the
   * default filesystem given, else the URI.
   */
  private List<String> cliArgs(org.apache.hadoop.fs.Path remote) {
    Configuration defaults = new Configuration();
    List<String> args = new ArrayList<>();
    String defaultFs = null;
    for (Map.Entry<String, String> e : configuration()) {
      if (e.getKey().startsWith("fs.") && !e.getValue().equals(defaults.get(e.getKey()))) {
        args.add("--conf");
        args.add(e.getKey() + "=" + e.getValue());
        if (e.getKey().equals("fs.defaultFS")) {
          defaultFs = e.getValue();
        }
      }
    }
    // The tests' own cached filesystem of this server must not serve the command line: it
    // builds one from its --conf alone (the instance is left to the JVM's end).
    args.add("--conf");
    args.add("fs." + remote.toUri().getScheme() + ".impl.disable.cache=true");
    boolean onDefault = defaultFs != null && remote.toUri().toString().startsWith(defaultFs);
    args.add(onDefault ? remote.toUri().getPath() : remote.toUri().toString());
    return args;
  }

  @Test
  void theCommandLineScansRemoteFilesAsItScansLocalOnes() {
    for (String name : List.of("flat.parquet", "nested.orc")) {
      List<String> scan =
          new ArrayList<>(
              List.of("scan", "--json", "--threads", "2", "--conf", "prefetch.min-read-bytes=0"));
      String[] local = cli(listWith(scan, locals.get(name).toString()));
      scan.addAll(cliArgs(remotes.get(name)));
      String[] remote = cli(scan);
      assertThat(remote[0]).as(remote[2]).isEqualTo("0");
      assertThat(local[0]).as(local[2]).isEqualTo("0");
      assertThat(remote[1]).contains("\"prefetch\":{\"enabled\":true");
      assertThat(field(remote[1], "checksum")).isEqualTo(field(local[1], "checksum"));
      assertThat(field(remote[1], "rows")).isEqualTo(field(local[1], "rows"));

      List<List<String>> commands =
          name.endsWith(".parquet")
              ? List.of(
                  List.of("head", "-n", "5", "--json"),
                  List.of("count", "--json"),
                  List.of("meta", "--json", "--row-groups", "0"))
              : List.of(List.of("head", "-n", "5", "--json"));
      for (List<String> command : commands) {
        String[] l = cli(listWith(command, locals.get(name).toString()));
        List<String> r = new ArrayList<>(command);
        r.addAll(cliArgs(remotes.get(name)));
        String[] rr = cli(r);
        assertThat(rr[0]).as(command + ": " + rr[2]).isEqualTo("0");
        assertThat(l[0]).as(command + ": " + l[2]).isEqualTo("0");
        // the same output but for the file's name
        assertThat(rr[1].replaceAll("\"file\":\"[^\"]*\"", ""))
            .isEqualTo(l[1].replaceAll("\"file\":\"[^\"]*\"", ""));
      }
    }
    // Without the server's settings the same command cannot reach the file.
    List<String> bare =
        new ArrayList<>(
            List.of(
                "count",
                "--conf",
                "fs."
                    + remotes.get("flat.parquet").toUri().getScheme()
                    + ".impl.disable.cache=true"));
    List<String> remoteArgs = cliArgs(remotes.get("flat.parquet"));
    bare.add(remoteArgs.get(remoteArgs.size() - 1));
    String[] unreachable = cli(bare);
    assertThat(unreachable[0]).as(unreachable[1]).isEqualTo("3");
    assertThat(unreachable[2]).contains("flat.parquet");
  }

  private static List<String> listWith(List<String> args, String last) {
    List<String> all = new ArrayList<>(args);
    all.add(last);
    return all;
  }

  /** The text of one top-level field of the command's JSON line. */
  private static String field(String json, String name) {
    try {
      return JSON.readTree(json).path(name).asText();
    } catch (JsonProcessingException e) {
      throw new AssertionError("not a JSON line: " + json, e);
    }
  }

  @Test
  void aMissingRemoteFileIsFileNotFoundNamingIt() {
    Throwable thrown =
        catchThrowable(
            () -> {
              try (BatchReader reader =
                  Readers.open(
                      DataFile.of(missing()), Scans.prefetching(2).build(), context(null, null))) {
                reader.next();
              }
            });
    assertThat(thrown)
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining(missing().getName());
  }
}
