package dev.prefetch.cli;

import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.testkit.storage.SimulatedFileSystem;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Option;

/** The read options every scanning command shares. */
public final class ReadArgs {

  /** The reader property carrying the row groups to read (Parquet). */
  public static final String ROW_GROUPS_PROPERTY = "parquet.read.row-groups";

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Producer threads (prefetch.parallelism); default min(8, max(2, cores)).")
  Integer threads;

  @Option(names = "--no-prefetch", description = "Read with a single reader on the calling thread.")
  boolean noPrefetch;

  @Option(
      names = "--columns",
      paramLabel = "a,b",
      split = ",",
      description = "Top-level columns to read (default: all).")
  List<String> columns = new ArrayList<>();

  @Option(
      names = "--batch-size",
      paramLabel = "N",
      description = "Rows per batch (read.batch-size).")
  Integer batchSize;

  @Option(
      names = "--conf",
      paramLabel = "key=value",
      description =
          "A reader property (read.*, prefetch.*, parquet.*, orc.*) or any Hadoop "
              + "setting (fs.s3a.endpoint, fs.defaultFS, ...); repeatable.")
  Map<String, String> conf = new LinkedHashMap<>();

  @Option(
      names = "--cache-bytes",
      paramLabel = "N",
      description =
          "Share a metadata cache of N bytes (e.g. 64m) across every open in this " + "process.")
  String cacheBytesText;

  @Option(
      names = "--repeat",
      paramLabel = "N",
      description = "After one warm-up scan, open and scan the files N times; report the median.")
  Integer repeat;

  @Option(names = "--json", description = "One JSON object per file (and contender) on stdout.")
  boolean json;

  @Option(
      names = "--filter",
      paramLabel = "\"column op literal\"",
      description =
          "Pushed-down predicate: op is one of = != < <= > >= (Parquet FilterPredicate "
              + "or ORC SearchArgument, typed by the column's type).")
  String filter;

  @Option(
      names = "--row-groups",
      paramLabel = "i,j",
      split = ",",
      description =
          "Parquet: read only these row groups (0-based); meta and count: these row "
              + "groups or ORC stripes.")
  List<Integer> rowGroups;

  @Option(
      names = "--rows",
      paramLabel = "START:END",
      description = "Read only file rows [START, END).")
  String rows;

  @Option(
      names = "--latency-ms",
      paramLabel = "N",
      defaultValue = "0",
      description = "Simulated storage: first-byte latency of every request, in ms.")
  long latencyMs;

  @Option(
      names = "--bandwidth-mbps",
      paramLabel = "M",
      defaultValue = "0",
      description = "Simulated storage: transfer rate of each open stream, in MiB/s (0: no cap).")
  double bandwidthMbps;

  @Option(
      names = "--remote",
      description = "The standard remote model: --latency-ms 20 --bandwidth-mbps 64.")
  boolean remote;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  /** Latency of the standard remote model, in ms. */
  public static final long REMOTE_LATENCY_MS = 20;

  /** Per-stream bandwidth of the standard remote model, in MiB/s. */
  public static final double REMOTE_BANDWIDTH_MBPS = 64;

  /** Validates the plain numbers; the reader options validate the rest. */
  void validate() {
    if (remote) {
      if (latencyMs == 0) {
        latencyMs = REMOTE_LATENCY_MS;
      }
      if (bandwidthMbps == 0) {
        bandwidthMbps = REMOTE_BANDWIDTH_MBPS;
      }
    }
    if (repeat != null && repeat < 1) {
      throw new CliException(CliException.USAGE, "--repeat must be at least 1: " + repeat);
    }
    if (threads != null && threads < 1) {
      throw new CliException(CliException.USAGE, "--threads must be at least 1: " + threads);
    }
    if (batchSize != null && batchSize < 1) {
      throw new CliException(CliException.USAGE, "--batch-size must be at least 1: " + batchSize);
    }
    Long cache = cacheBytes();
    if (cache != null && cache < 1) {
      throw new CliException(CliException.USAGE, "--cache-bytes must be at least 1: " + cache);
    }
    if (latencyMs < 0) {
      throw new CliException(CliException.USAGE, "--latency-ms must not be negative: " + latencyMs);
    }
    if (bandwidthMbps < 0 || Double.isNaN(bandwidthMbps)) {
      throw new CliException(
          CliException.USAGE, "--bandwidth-mbps must not be negative: " + bandwidthMbps);
    }
    if (rowGroups != null) {
      for (int g : rowGroups) {
        if (g < 0) {
          throw new CliException(CliException.USAGE, "--row-groups must not be negative: " + g);
        }
      }
    }
    rowRanges();
    if (filter != null) {
      FilterParser.parse(filter);
    }
    readOptions(true);
  }

  /** The --cache-bytes size, or null without a cache. */
  Long cacheBytes() {
    if (cacheBytesText == null) {
      return null;
    }
    try {
      return dev.prefetch.cli.internal.ByteSize.parse("--cache-bytes", cacheBytesText);
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, e.getMessage());
    }
  }

  /** Whether reads go through the simulated object store. */
  boolean simulated() {
    return latencyMs > 0 || bandwidthMbps > 0;
  }

  /**
   * Whether {@code key} is a reader property: {@code read.*} and {@code prefetch.*} are ours,
   * {@code parquet.*} and {@code orc.*} the format libraries' (the reader options hand them on).
   * Every other {@code --conf} key is a Hadoop setting.
   */
  static boolean isReaderProperty(String key) {
    return key.startsWith("read.")
        || key.startsWith("prefetch.")
        || key.startsWith("parquet.")
        || key.startsWith("orc.");
  }

  /** The --conf entries that are reader properties. */
  Map<String, String> readerProperties() {
    Map<String, String> ours = new LinkedHashMap<>();
    conf.forEach(
        (key, value) -> {
          if (isReaderProperty(key)) {
            ours.put(key, value);
          }
        });
    return ours;
  }

  /**
   * The Hadoop configuration of every read: the --conf entries that are not reader properties
   * (credentials providers, endpoints, fs.defaultFS, ...), and the simulated scheme when asked for.
   */
  Configuration configuration() {
    Configuration hadoop = new Configuration();
    conf.forEach(
        (key, value) -> {
          if (!isReaderProperty(key)) {
            hadoop.set(key, value);
          }
        });
    if (simulated()) {
      SimulatedFileSystem.configure(hadoop, latencyMs, bandwidthMbps);
    }
    return hadoop;
  }

  /**
   * The path a reader opens for a command-line file: a URI with a scheme ({@code s3a://}, {@code
   * hdfs://}, {@code file:}) as it is; a plain name on the {@code fs.defaultFS} given with --conf,
   * else as a local file (through the simulator if asked).
   */
  Path readPath(String file) {
    if (hasScheme(file)) {
      if (simulated()) {
        throw new CliException(
            CliException.USAGE,
            file
                + ": --latency-ms, --bandwidth-mbps and "
                + "--remote simulate storage for local files only");
      }
      return new Path(file);
    }
    if (conf.containsKey("fs.defaultFS") && !simulated()) {
      return new Path(file);
    }
    File local = new File(file);
    if (simulated()) {
      return SimulatedFileSystem.pathOf(local.toPath());
    }
    return new Path(local.getAbsoluteFile().toURI());
  }

  /** Whether {@code file} starts with a URI scheme ({@code s3a:}, not a drive letter). */
  static boolean hasScheme(String file) {
    int colon = file.indexOf(':');
    if (colon < 2) {
      return false;
    }
    for (int i = 0; i < colon; i++) {
      char c = file.charAt(i);
      boolean ok =
          Character.isLetter(c)
              || (i > 0 && (Character.isDigit(c) || c == '+' || c == '-' || c == '.'));
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The path the format libraries' own readers open (also through the simulator if asked). */
  Path baselinePath(String file) {
    return readPath(file);
  }

  /** The selected rows, or null for all. */
  List<RowRange> rowRanges() {
    if (rows == null) {
      return null;
    }
    String[] parts = rows.split(":", -1);
    try {
      if (parts.length != 2) {
        throw new NumberFormatException();
      }
      long start = Long.parseLong(parts[0].trim());
      long end = Long.parseLong(parts[1].trim());
      return List.of(new RowRange(start, end));
    } catch (NumberFormatException e) {
      throw new CliException(
          CliException.USAGE, "--rows must be START:END (e.g. 1000:2000): '" + rows + "'");
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, "--rows: " + e.getMessage());
    }
  }

  /** The reader options of one contender ({@code prefetch} false forces the single reader). */
  ReadOptions readOptions(boolean prefetch) {
    try {
      ReadOptions.Builder b = ReadOptions.builder();
      b.properties(readerProperties());
      if (batchSize != null) {
        b.batchSize(batchSize);
      }
      if (threads != null) {
        b.parallelism(threads);
      }
      if (!columns.isEmpty()) {
        b.columns(columns);
      }
      if (noPrefetch || !prefetch) {
        b.prefetchEnabled(false);
      }
      List<RowRange> ranges = rowRanges();
      if (ranges != null) {
        b.rowRanges(ranges);
      }
      if (rowGroups != null) {
        StringBuilder text = new StringBuilder();
        for (int g : rowGroups) {
          text.append(text.length() == 0 ? "" : ",").append(g);
        }
        b.property(ROW_GROUPS_PROPERTY, text.toString());
      }
      ReadOptions options = b.build();
      Readers.checkOptions(options); // a bad parquet.* / orc.* value is a usage error too
      return options;
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, e.getMessage());
    }
  }
}
