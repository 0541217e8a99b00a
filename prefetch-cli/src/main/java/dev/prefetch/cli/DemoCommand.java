package dev.prefetch.cli;

import dev.prefetch.ReadOptions;
import dev.prefetch.cli.internal.Format;
import dev.prefetch.testkit.gen.DataSets;
import dev.prefetch.testkit.gen.GenSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: generates a Parquet and an ORC file of the scan table (or reuses them when a
 * previous run made them with the same parameters), then reads both with the single reader, the
 * prefetching reader and the format library's own reader, and prints the figures side by side.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Generate a demo Parquet and ORC data set (reused when present), scan both "
            + "single and prefetched and with the format library's reader, and compare.")
final class DemoCommand implements Callable<Integer> {

  /** Rows of the demo table: about 100 MiB per format with the default codec. */
  static final long DEFAULT_ROWS = 2_000_000L;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where the demo files live (default: <tmp>/prefetch-scan-demo).")
  Path dir;

  @Option(names = "--rows", paramLabel = "N", description = "Rows per file (default 2,000,000).")
  long rows = DEFAULT_ROWS;

  @Option(names = "--threads", paramLabel = "N", description = "Producer threads for prefetch.")
  Integer threads;

  @Option(
      names = "--repeat",
      paramLabel = "N",
      defaultValue = "3",
      description = "Timed runs per contender after a warm-up.")
  int repeat;

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
      description = "Simulated storage: transfer rate of each open stream, in MiB/s.")
  double bandwidthMbps;

  @Option(
      names = "--remote",
      description = "Read through the standard remote model (20 ms per request, 64 MiB/s).")
  boolean remote;

  @Option(names = "--json", description = "One JSON object per file and contender.")
  boolean json;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (rows < 1) {
      throw new CliException(CliException.USAGE, "--rows must be at least 1: " + rows);
    }
    if (repeat < 1) {
      throw new CliException(CliException.USAGE, "--repeat must be at least 1: " + repeat);
    }
    Path home =
        dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"), "prefetch-scan-demo");
    PrintWriter out = spec.commandLine().getOut();
    List<String> files = new ArrayList<>();
    // Both files are generated at once, one thread each: generation is most of a first run.
    List<java.util.concurrent.CompletableFuture<String>> generated = new ArrayList<>();
    for (String format : List.of("parquet", "orc")) {
      GenSpec gen = GenSpec.scan(format, rows);
      Path file = home.resolve("scan." + format);
      files.add(file.toString());
      generated.add(
          java.util.concurrent.CompletableFuture.supplyAsync(
              () -> {
                try {
                  boolean written = DataSets.ensure(gen, file);
                  return String.format(
                      Locale.ROOT,
                      "%s %s (%s)",
                      written ? "generated" : "reusing",
                      file,
                      Format.bytes(Files.size(file)));
                } catch (IOException e) {
                  throw new CliException(
                      CliException.READ_ERROR, file + ": cannot generate: " + e.getMessage(), e);
                }
              }));
    }
    for (java.util.concurrent.CompletableFuture<String> g : generated) {
      String line;
      try {
        line = g.join();
      } catch (java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof CliException cli) {
          throw cli;
        }
        throw new CliException(
            CliException.READ_ERROR,
            "cannot generate the demo files: " + e.getCause().getMessage(),
            e.getCause());
      }
      if (!json) {
        out.println(line);
        out.flush();
      }
    }
    CompareCommand compare = new CompareCommand();
    compare.spec = spec;
    compare.args = new ReadArgs();
    compare.args.threads = threads;
    compare.args.latencyMs = latencyMs;
    compare.args.bandwidthMbps = bandwidthMbps;
    compare.args.remote = remote;
    compare.args.json = json;
    compare.files = files;
    compare.setUp();
    latencyMs = compare.args.latencyMs;
    bandwidthMbps = compare.args.bandwidthMbps;
    List<DataFiles.Checked> checked = compare.checkFiles();
    List<List<RunResult>> all = new ArrayList<>();
    boolean agree = true;
    for (DataFiles.Checked file : checked) {
      List<RunResult> results = compare.compare(file, repeat);
      all.add(results);
      if (json) {
        agree &= compare.report(out, file, results);
      } else {
        for (RunResult r : results) {
          agree &= r.checksum().equals(results.get(results.size() - 1).checksum());
        }
      }
    }
    if (!json) {
      printSideBySide(out, checked, all, compare.args.readOptions(true));
      out.println(
          agree
              ? "checksums agree across all readers of each file"
              : "CHECKSUMS DIFFER between readers");
    }
    out.flush();
    return agree ? 0 : CliException.MISMATCH;
  }

  private void printSideBySide(
      PrintWriter out,
      List<DataFiles.Checked> files,
      List<List<RunResult>> all,
      ReadOptions prefetch) {
    out.println();
    out.printf(
        Locale.ROOT,
        "Full scan of every column, median of %d runs after a warm-up%s%n",
        repeat,
        latencyMs > 0 || bandwidthMbps > 0
            ? String.format(
                Locale.ROOT,
                " (simulated storage: %d ms per request, %.0f MiB/s per stream)",
                latencyMs,
                bandwidthMbps)
            : "");
    out.printf(Locale.ROOT, "%-18s", "");
    for (DataFiles.Checked f : files) {
      out.printf(
          Locale.ROOT,
          " | %-36s",
          f.format()
              + " "
              + Format.bytes(f.length())
              + ", "
              + Format.count(all.get(0).get(0).rows())
              + " rows");
    }
    out.println();
    out.printf(Locale.ROOT, "%-18s", "reader");
    for (int i = 0; i < files.size(); i++) {
      out.printf(Locale.ROOT, " | %9s %10s %7s %7s", "seconds", "rows/s", "MiB/s", "speedup");
    }
    out.println();
    int contenders = all.get(0).size();
    for (int c = 0; c < contenders; c++) {
      String label = c == contenders - 1 ? "format library" : all.get(0).get(c).contender();
      out.printf(Locale.ROOT, "%-18s", label);
      for (List<RunResult> results : all) {
        RunResult r = results.get(c);
        RunResult base = results.get(results.size() - 1);
        out.printf(
            Locale.ROOT,
            " | %9s %10s %7.0f %6.2fx",
            Format.seconds(r.seconds()),
            Format.count(r.rowsPerSecond()),
            r.megabytesPerSecond(),
            r.seconds() <= 0 ? 0 : base.seconds() / r.seconds());
      }
      out.println();
    }
    out.printf(
        Locale.ROOT,
        "(format library: parquet-hadoop column readers / orc-core vectorized "
            + "reader; speedup is relative to it; prefetch used %d producers)%n",
        prefetch.parallelism());
  }
}
