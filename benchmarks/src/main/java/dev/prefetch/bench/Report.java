package dev.prefetch.bench;

import dev.prefetch.bench.report.BenchResult;
import dev.prefetch.bench.report.MachineInfo;
import dev.prefetch.bench.report.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a JMH {@code results.json} of the suite into the Markdown of {@code docs/BENCHMARKS.md}:
 * the machine, the command, one table per format and storage with every contender's median and mean
 * time per scan, rows/s, MiB/s and error, and the headline ratios, all from the same run; with
 * {@code -prof dev.prefetch.bench.HeapProfiler}, every trial's memory ({@link MemoryTable}).
 *
 * <p>{@code Report [results.json] [--data DIR] [--command TEXT] [--rows N]}: the data files ({@code
 * scan.parquet}, {@code scan.orc}) are looked up in the directory of the forks' {@code
 * -Dbench.dir}, else beside the results; the command in {@code command.txt} beside the results
 * (written by {@code bin/bench}). Run it on the machine that ran the suite: cores and memory are
 * this machine's.
 */
public final class Report {

  private static final String[] FORMATS = {"parquet", "orc"};
  private static final String[] STORAGES = {"local", "remote"};

  private final List<BenchResult> results;
  private final Map<String, BenchResult> byKey = new LinkedHashMap<>();
  private final Map<String, Long> fileBytes;
  private final long rows;

  /**
   * @param results the suite's results
   * @param fileBytes the size of each format's data file ("parquet", "orc"), absent when unknown
   * @param rows rows of the data files
   */
  public Report(List<BenchResult> results, Map<String, Long> fileBytes, long rows) {
    this.results = List.copyOf(results);
    this.fileBytes = Map.copyOf(fileBytes);
    this.rows = rows;
    for (BenchResult r : results) {
      String key = key(r);
      if (key != null) {
        byKey.put(key, r);
      }
    }
  }

  /** "format/storage/contender" of a result, or null for a benchmark this report does not know. */
  static String key(BenchResult r) {
    return switch (r.benchmark()) {
      case "ScanBenchmark" ->
          r.param("format", "?") + "/" + r.param("storage", "?") + "/" + r.param("reader", "?");
      case "RemoteScanBenchmark" -> r.param("format", "?") + "/remote/" + r.param("reader", "?");
      case "HardwoodBenchmark" ->
          "parquet/" + r.param("storage", "local") + "/hardwood-" + r.param("threads", "?");
      case "DuckDbBenchmark" -> "parquet/local/duckdb-" + r.param("threads", "?");
      default -> null;
    };
  }

  /** The display name of a contender id. */
  static String label(String format, String id) {
    if (id.equals("single")) {
      return "ours, single reader";
    }
    if (id.equals("library")) {
      return format.equals("parquet") ? "parquet-hadoop (column API)" : "orc-core (vectorized)";
    }
    if (id.startsWith("prefetch-")) {
      String n = id.substring("prefetch-".length());
      return "ours, " + n + (n.equals("1") ? " producer" : " producers");
    }
    if (id.startsWith("hardwood-")) {
      String n = id.substring("hardwood-".length());
      return "Hardwood, " + n + (n.equals("1") ? " thread" : " threads");
    }
    if (id.startsWith("duckdb-")) {
      String n = id.substring("duckdb-".length());
      return "DuckDB (native), " + n + (n.equals("1") ? " thread" : " threads");
    }
    return id;
  }

  /** The whole Markdown document body. */
  public String markdown(String machine, String command) {
    StringBuilder out = new StringBuilder();
    out.append("## Machine and run\n\n").append(machine);
    out.append("\nCommand:\n\n```\n").append(command).append("\n```\n\n");
    out.append(settings());
    for (String format : FORMATS) {
      for (String storage : STORAGES) {
        out.append(table(format, storage));
      }
    }
    out.append(ratios());
    out.append(MemoryTable.markdown(results));
    return out.toString();
  }

  private String settings() {
    Map<String, String> lines = new LinkedHashMap<>();
    for (BenchResult r : results) {
      lines.putIfAbsent(
          r.benchmark(),
          String.format(
              Locale.ROOT,
              "- `%s`: %d fork(s) x (%d warm-up + %d measured) single-shot scans per configuration",
              r.benchmark(),
              r.forks(),
              r.warmups(),
              r.iterations()));
    }
    StringBuilder out = new StringBuilder("JMH settings (from the results):\n\n");
    for (String line : lines.values()) {
      out.append(line).append('\n');
    }
    out.append(String.format(Locale.ROOT, "%nData: %,d rows of the 12-column scan table", rows));
    for (String format : FORMATS) {
      Long bytes = fileBytes.get(format);
      if (bytes != null) {
        out.append(
            String.format(
                Locale.ROOT, "; `scan.%s` %,d bytes (%.1f MiB)", format, bytes, bytes / 1048576.0));
      }
    }
    out.append(".\n\n");
    return out.toString();
  }

  private String table(String format, String storage) {
    String prefix = format + "/" + storage + "/";
    List<String> ids = new ArrayList<>();
    for (String key : byKey.keySet()) {
      if (key.startsWith(prefix)) {
        ids.add(key.substring(prefix.length()));
      }
    }
    if (ids.isEmpty()) {
      return "";
    }
    ids.sort((a, b) -> Integer.compare(order(a), order(b)));
    StringBuilder out = new StringBuilder();
    out.append("### ")
        .append(format.equals("parquet") ? "Parquet" : "ORC")
        .append(", ")
        .append(
            storage.equals("local")
                ? "local file"
                : "remote model (20 ms per request, " + "64 MiB/s per stream)")
        .append("\n\n");
    out.append(
        "| contender | median s/scan | mean s/scan | error (99.9%) | rows/s | MiB/s |"
            + " vs library |\n");
    out.append("|---|--:|--:|--:|--:|--:|--:|\n");
    BenchResult library = byKey.get(prefix + "library");
    Long bytes = fileBytes.get(format);
    for (String id : ids) {
      BenchResult r = byKey.get(prefix + id);
      double median = r.median();
      out.append("| ")
          .append(label(format, id))
          .append(" | ")
          .append(seconds(median))
          .append(" | ")
          .append(seconds(r.mean()))
          .append(" | ")
          .append(Double.isNaN(r.error()) ? "n/a" : "± " + seconds(r.error()))
          .append(" | ")
          .append(rows > 0 ? count(rows / median) : "n/a")
          .append(" | ")
          .append(
              bytes != null
                  ? String.format(Locale.ROOT, "%.1f", bytes / 1048576.0 / median)
                  : "n/a")
          .append(" | ")
          .append(library == null || id.equals("library") ? "" : ratio(library.median() / median))
          .append(" |\n");
    }
    return out.append('\n').toString();
  }

  /** Table order: ours single, ours by producers, the library, Hardwood, DuckDB. */
  private static int order(String id) {
    if (id.equals("single")) {
      return 0;
    }
    if (id.startsWith("prefetch-")) {
      return 100 + number(id);
    }
    if (id.equals("library")) {
      return 200;
    }
    if (id.startsWith("hardwood-")) {
      return 300 + number(id);
    }
    if (id.startsWith("duckdb-")) {
      return 400 + number(id);
    }
    return 500;
  }

  private static int number(String id) {
    try {
      return Integer.parseInt(id.substring(id.indexOf('-') + 1));
    } catch (NumberFormatException e) {
      return 99;
    }
  }

  private String ratios() {
    StringBuilder rowsOut = new StringBuilder();
    for (String storage : STORAGES) {
      ratio(rowsOut, "parquet", storage, "single", "library");
      ratio(rowsOut, "parquet", storage, "prefetch-1", "library");
      ratio(rowsOut, "parquet", storage, "prefetch-2", "library");
      for (String n : new String[] {"1", "2", "4", "8"}) {
        ratio(rowsOut, "parquet", storage, "prefetch-" + n, "hardwood-" + n);
      }
      ratio(rowsOut, "orc", storage, "single", "library");
      ratio(rowsOut, "orc", storage, "prefetch-2", "library");
    }
    for (String format : FORMATS) {
      ratio(rowsOut, format, "remote", "prefetch-8", "single");
      ratio(rowsOut, format, "remote", "prefetch-8", "library");
    }
    ratio(rowsOut, "parquet", "local", "single", "duckdb-1");
    ratio(rowsOut, "parquet", "local", "prefetch-1", "duckdb-1");
    ratio(rowsOut, "parquet", "local", "prefetch-2", "duckdb-2");
    if (rowsOut.length() == 0) {
      return "";
    }
    return "### Ratios (same run; speedup = their median / our median, above 1 = ours faster)\n\n"
        + "| ours | against | storage | ours s | theirs s | speedup |\n"
        + "|---|---|---|--:|--:|--:|\n"
        + rowsOut
        + "\n";
  }

  private void ratio(StringBuilder out, String format, String storage, String ours, String theirs) {
    BenchResult a = byKey.get(format + "/" + storage + "/" + ours);
    BenchResult b = byKey.get(format + "/" + storage + "/" + theirs);
    if (a == null || b == null) {
      return;
    }
    String name = format.equals("parquet") ? "Parquet" : "ORC";
    out.append("| ")
        .append(name)
        .append(": ")
        .append(label(format, ours))
        .append(" | ")
        .append(label(format, theirs))
        .append(" | ")
        .append(storage)
        .append(" | ")
        .append(seconds(a.median()))
        .append(" | ")
        .append(seconds(b.median()))
        .append(" | ")
        .append(ratio(b.median() / a.median()))
        .append(" |\n");
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, s < 10 ? "%.3f" : "%.2f", s);
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }

  private static String count(double perSecond) {
    if (perSecond >= 1e6) {
      return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
    }
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  /** This machine, the JVMs of the results and the date of the run (see {@link MachineInfo}). */
  static String machine(List<BenchResult> results, Instant runAt) {
    return MachineInfo.describe(results, runAt);
  }

  /** Prints the Markdown of a results file; see the class comment for the arguments. */
  public static void main(String[] args) throws IOException {
    if (args.length == 1 && args[0].equals("--check-jvm")) {
      // bin/bench's check that this JVM can load the jar's classes.
      return;
    }
    Path resultsPath = null;
    Path data = null;
    String command = null;
    Long rowsArg = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--data" -> data = Path.of(value(args, ++i));
        case "--command" -> command = value(args, ++i);
        case "--rows" -> rowsArg = Long.parseLong(value(args, ++i));
        default -> {
          if (resultsPath != null || args[i].startsWith("--")) {
            System.err.println(
                "usage: Report [results.json] [--data DIR] [--command TEXT]" + " [--rows N]");
            System.exit(2);
          }
          resultsPath = Path.of(args[i]);
        }
      }
    }
    if (resultsPath == null) {
      resultsPath = BenchData.dir().resolve("results.json");
    }
    if (!Files.isRegularFile(resultsPath)) {
      System.err.println("report: " + resultsPath + " not found; run bin/bench first");
      System.exit(2);
    }
    List<BenchResult> results = ResultsFile.read(resultsPath);
    if (results.isEmpty()) {
      System.err.println("report: " + resultsPath + " holds no results");
      System.exit(2);
    }
    Path dir = resultsPath.toAbsolutePath().getParent();
    String benchDir = results.get(0).systemProperty(BenchData.DIR_PROPERTY);
    if (data == null) {
      data = benchDir != null && Files.isDirectory(Path.of(benchDir)) ? Path.of(benchDir) : dir;
    }
    long rows = rowsArg != null ? rowsArg : rowsOf(results);
    Map<String, Long> sizes = new LinkedHashMap<>();
    for (String format : FORMATS) {
      Path file = data.resolve("scan." + format);
      if (Files.isRegularFile(file)) {
        sizes.put(format, Files.size(file));
      }
    }
    if (command == null) {
      Path recorded = dir.resolve("command.txt");
      command =
          Files.isRegularFile(recorded)
              ? Files.readString(recorded).strip()
              : "(not recorded: pass --command)";
    }
    Instant runAt = Files.getLastModifiedTime(resultsPath).toInstant();
    System.out.print(new Report(results, sizes, rows).markdown(machine(results, runAt), command));
  }

  private static long rowsOf(List<BenchResult> results) {
    String rows = results.get(0).systemProperty(BenchData.ROWS_PROPERTY);
    return rows != null ? Long.parseLong(rows) : -1;
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      System.err.println("report: " + args[i - 1] + " needs a value");
      System.exit(2);
    }
    return args[i];
  }
}
