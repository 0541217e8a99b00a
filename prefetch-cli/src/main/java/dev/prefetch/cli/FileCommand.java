package dev.prefetch.cli;

import dev.prefetch.ReadContext;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheStats;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ProcessCpu;
import dev.prefetch.testkit.scan.ProgressBar;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** A command over data files: shared options, file checks, timed runs of contenders. */
abstract class FileCommand implements Callable<Integer> {

  @Mixin ReadArgs args;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Parquet or ORC files.")
  List<String> files;

  @Spec CommandSpec spec;

  Configuration conf;
  Cache cache;
  ReadContext context;

  /**
   * With --row-groups: the rows of the selected row groups per file, from one footer parse before
   * any timed read (a parse of a wide footer would swamp the read it checks).
   */
  final java.util.Map<DataFiles.Checked, Long> selectedRows = new java.util.HashMap<>();

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  java.io.PrintStream progressStream() {
    return System.err;
  }

  /** Validates options and builds the shared runtime (configuration, cache, context). */
  void setUp() {
    args.validate();
    conf = args.configuration();
    if (args.cacheBytes() != null) {
      cache = SharedCache.create(args.cacheBytes());
    }
    ReadContext.Builder b = ReadContext.builder().configuration(conf);
    if (cache != null) {
      b.cache(cache);
    }
    context = b.build();
  }

  /**
   * Rejects {@code --rows} with {@code --filter} in a command that compares with the format
   * libraries' readers: they filter whole pages, so their rows would not be the selected ones.
   */
  void rejectRowsWithFilter(String command) {
    if (args.rows != null && args.filter != null) {
      throw new CliException(
          CliException.USAGE,
          "--rows and --filter cannot be combined in "
              + command
              + " (the library readers filter pages)");
    }
  }

  /** Checks every file before any read, so a bad one fails fast. */
  List<DataFiles.Checked> checkFiles() {
    List<DataFiles.Checked> checked = new ArrayList<>();
    for (String file : files) {
      checked.add(DataFiles.check(file, args.readPath(file), conf));
    }
    if (args.rowGroups != null) {
      for (DataFiles.Checked c : checked) {
        if (!c.format().equals("parquet")) {
          throw new CliException(
              CliException.USAGE,
              c.name()
                  + ": --row-groups applies to Parquet files only (this is "
                  + c.format()
                  + ")");
        }
        selectedRows.put(c, RowGroupCheck.rowsOf(c, conf, args.rowGroups));
      }
    }
    return checked;
  }

  /** The format's native predicate for {@code file}, or null without --filter. */
  Object filterFor(DataFiles.Checked file) {
    if (args.filter == null) {
      return null;
    }
    FilterParser.Predicate p = FilterParser.parse(args.filter);
    try {
      return file.format().equals("parquet")
          ? FilterParser.parquet(p, file.path(), conf)
          : FilterParser.orc(p, file.path(), conf);
    } catch (IOException e) {
      throw readError(file.name(), e);
    }
  }

  static CliException readError(String name, Throwable e) {
    Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
    String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
    if (!message.contains(name) && !message.contains(new java.io.File(name).getName())) {
      message = name + ": " + message;
    }
    return new CliException(CliException.READ_ERROR, message, cause);
  }

  /**
   * What one result line reads: one file, or several read as one stream (in the order given).
   *
   * @param name the file as given, or for a stream the first one and how many follow
   * @param format the files' format, or "mixed"
   * @param length the files' bytes
   * @param files the files, in read order
   */
  record Target(String name, String format, long length, List<DataFiles.Checked> files) {

    Target {
      files = List.copyOf(files);
    }

    static Target of(DataFiles.Checked file) {
      return new Target(file.name(), file.format(), file.length(), List.of(file));
    }

    /** The files read as one stream; a single file is its own target. */
    static Target stream(List<DataFiles.Checked> files) {
      if (files.size() == 1) {
        return of(files.get(0));
      }
      String format = files.get(0).format();
      long length = 0;
      for (DataFiles.Checked f : files) {
        length += f.length();
        if (!f.format().equals(format)) {
          format = "mixed";
        }
      }
      String name = files.get(0).name() + " (+" + (files.size() - 1) + " more)";
      return new Target(name, format, length, files);
    }

    DataFiles.Checked first() {
      return files.get(0);
    }

    boolean isStream() {
      return files.size() > 1;
    }
  }

  /**
   * One scan of a file by a contender, as a timed run, with the process CPU time it took (-1 when
   * the JVM does not report it), cache counters and progress.
   */
  record Timed(Contender.Scan scan, double seconds, double cpuSeconds, CacheStats cache) {}

  Timed timed(Contender contender, DataFiles.Checked file, boolean perColumn, long expectedRows) {
    return timed(contender, Target.of(file), perColumn, expectedRows);
  }

  /** As {@link #timed(Contender, DataFiles.Checked, boolean, long)}, over a target. */
  Timed timed(Contender contender, Target target, boolean perColumn, long expectedRows) {
    return InspectSupport.failuresNamed(
        e -> failedFile(target, e), () -> scanTimed(contender, target, perColumn, expectedRows));
  }

  private Timed scanTimed(Contender contender, Target target, boolean perColumn, long expectedRows)
      throws IOException {
    CacheStats before = cache == null ? null : cache.stats();
    DataFiles.Checked file = target.first();
    try (ProgressBar bar =
        ProgressBar.start(
            target.name() + " " + contender.name(), expectedRows, progressStream(), args.json)) {
      long cpuStart = ProcessCpu.nanos();
      long start = System.nanoTime();
      Contender.Scan scan;
      if (target.isStream()) {
        List<org.apache.hadoop.fs.Path> paths = new ArrayList<>();
        for (DataFiles.Checked f : target.files()) {
          paths.add(f.path());
        }
        scan = contender.scanStream(paths, perColumn, bar);
      } else {
        scan = contender.scan(file.path(), file.format(), perColumn, bar);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long cpuEnd = ProcessCpu.nanos();
      double cpuSeconds = cpuStart < 0 || cpuEnd < 0 ? -1 : (cpuEnd - cpuStart) / 1e9;
      CacheStats delta = cache == null ? null : cache.stats().minus(before);
      return new Timed(scan, seconds, cpuSeconds, delta);
    }
  }

  /** The name a read error of {@code target} goes under: the file its message names, if any. */
  private static String failedFile(Target target, Throwable e) {
    if (!target.isStream()) {
      return target.name();
    }
    Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
    String message = String.valueOf(cause.getMessage());
    for (DataFiles.Checked f : target.files()) {
      if (message.contains(f.path().toString()) || message.contains(f.name())) {
        return f.name();
      }
    }
    return target.name();
  }

  /** {@link #progressTotal(DataFiles.Checked)} summed over a target's files. */
  private long progressTotal(Target target) {
    long total = 0;
    for (DataFiles.Checked file : target.files()) {
      long rows = progressTotal(file);
      if (rows == 0) {
        return 0;
      }
      total += rows;
    }
    return total;
  }

  /**
   * The rows a full read of {@code file} returns, for the progress bar's percentage: read from the
   * footer only when a bar can be drawn and no selection narrows the read; 0 (no percentage)
   * otherwise. Later runs use the rows of the run before.
   */
  private long progressTotal(DataFiles.Checked file) {
    if (args.json
        || System.console() == null
        || args.rows != null
        || args.rowGroups != null
        || args.filter != null) {
      return 0;
    }
    try {
      if (file.format().equals("parquet")) {
        try (org.apache.parquet.hadoop.ParquetFileReader reader =
            org.apache.parquet.hadoop.ParquetFileReader.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(file.path(), conf))) {
          return reader.getRecordCount();
        }
      }
      try (org.apache.orc.Reader reader =
          org.apache.orc.OrcFile.createReader(
              file.path(), org.apache.orc.OrcFile.readerOptions(conf))) {
        return reader.getNumberOfRows();
      }
    } catch (IOException | RuntimeException e) {
      // The bar then shows rows without a percentage; the read itself reports the problem.
      return 0;
    }
  }

  /**
   * Runs every contender on {@code file}: a warm-up scan each when {@code warmUp}, then {@code
   * repeat} rounds in which the contenders take turns, so that drift on the machine hits all of
   * them alike. Each contender must produce the same checksum in every run.
   */
  List<RunResult> rounds(
      List<Contender> contenders,
      List<String> names,
      DataFiles.Checked file,
      int repeat,
      boolean warmUp) {
    return rounds(contenders, names, Target.of(file), repeat, warmUp);
  }

  /**
   * As {@link #rounds(List, List, DataFiles.Checked, int, boolean)}, over a target: a stream of
   * files gives one result per contender, its figures those of the whole stream.
   */
  List<RunResult> rounds(
      List<Contender> contenders, List<String> names, Target file, int repeat, boolean warmUp) {
    long expectedRows = progressTotal(file);
    if (warmUp) {
      for (Contender c : contenders) {
        expectedRows = timed(c, file, false, expectedRows).scan().rows();
      }
    }
    List<List<Timed>> runs = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      runs.add(new ArrayList<>());
    }
    for (int r = 0; r < repeat; r++) {
      for (int i = 0; i < contenders.size(); i++) {
        Timed t = timed(contenders.get(i), file, false, expectedRows);
        expectedRows = t.scan().rows();
        runs.get(i).add(t);
      }
    }
    List<RunResult> results = new ArrayList<>();
    for (int i = 0; i < contenders.size(); i++) {
      List<Timed> ts = runs.get(i);
      Contender.Scan first = ts.get(0).scan();
      List<Double> seconds = new ArrayList<>();
      List<Double> cpuSeconds = new ArrayList<>();
      CacheStats cacheTotal = cache == null ? null : CacheStats.EMPTY;
      long footerReads = 0;
      long footerBytes = 0;
      long requests = 0;
      for (Timed t : ts) {
        footerReads = addKnown(footerReads, t.scan().footerReads());
        footerBytes = addKnown(footerBytes, t.scan().footerBytesRead());
        requests = addKnown(requests, t.scan().readRequests());
        if (!t.scan().checksum().equals(first.checksum()) || t.scan().rows() != first.rows()) {
          throw new CliException(
              CliException.MISMATCH,
              file.name()
                  + ": "
                  + names.get(i)
                  + " read different values in two runs (checksum "
                  + first.checksum()
                  + " then "
                  + t.scan().checksum()
                  + ")");
        }
        seconds.add(t.seconds());
        if (t.cpuSeconds() >= 0) {
          cpuSeconds.add(t.cpuSeconds());
        }
        if (cacheTotal != null) {
          cacheTotal = cacheTotal.plus(t.cache());
        }
      }
      results.add(
          new RunResult(
              names.get(i),
              file.name(),
              file.format(),
              first.rows(),
              first.batches(),
              first.columnNames().size(),
              first.bytesRead(),
              file.length(),
              seconds,
              cpuSeconds.size() == seconds.size() ? cpuSeconds : List.of(),
              first.checksum(),
              first.columnChecksums(),
              first.columnNames(),
              first.prefetch(),
              first.parallelism(),
              first.ranges(),
              cacheTotal,
              footerReads,
              footerBytes,
              requests));
    }
    return results;
  }

  /** A sum of counters in which -1 (not counted by this reader) stays -1. */
  private static long addKnown(long total, long value) {
    return total < 0 || value < 0 ? -1 : total + value;
  }
}
