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
 * <p>First the current table and the targets ({@link CurrentFigures}): every figure beside the
 * decompression floor of its data and threads and beside its rivals with the same thread count;
 * every table carries the CPU model.
 *
 * <p>{@code Report [results.json...] [--data DIR] [--command TEXT] [--rows N]}: several results
 * files are read as one run, the later file's figure where two hold the same trial (a part run
 * again); the data files ({@code scan.parquet}, {@code scan.orc}) are looked up in the directory of
 * the forks' {@code -Dbench.dir}, else beside the (last) results; the command in {@code
 * command.txt} beside them (written by {@code bin/bench}). Run it on the machine that ran the
 * suite: the CPU, cores and memory are this machine's.
 */
public final class Report {

  private static final String[] FORMATS = {"parquet", "orc"};
  private static final String[] STORAGES = {"local", "remote"};

  private final List<BenchResult> results;
  private final Map<String, BenchResult> byKey = new LinkedHashMap<>();
  private final Map<String, Long> fileBytes;
  private final long rows;
  private final String cpu;

  /**
   * A report of this machine's CPU ({@link MachineInfo#cpuLine}).
   *
   * @param results the suite's results; of several for the same trial, the last counts
   * @param fileBytes the size of each format's data file ("parquet", "orc"), absent when unknown
   * @param rows rows of the data files
   */
  public Report(List<BenchResult> results, Map<String, Long> fileBytes, long rows) {
    this(results, fileBytes, rows, MachineInfo.cpuLine());
  }

  /** As {@link #Report(List, Map, long)}, with {@code cpu} as the CPU line of every table. */
  Report(List<BenchResult> results, Map<String, Long> fileBytes, long rows, String cpu) {
    this.results = List.copyOf(results);
    this.fileBytes = Map.copyOf(fileBytes);
    this.rows = rows;
    this.cpu = cpu;
    for (BenchResult r : results) {
      String key = key(r);
      if (key != null) {
        byKey.remove(key); // the latest figure of a trial, in the place of its last run
        byKey.put(key, r);
      }
    }
  }

  /**
   * "data/storage/contender" of a result, or null for a benchmark this report does not know. The
   * data: {@code parquet} and {@code orc} (the scan table's files), {@code lineitem-parquet-GROUP}
   * and {@code lineitem-orc-GROUP} (the lineitem files, every column or one group); the contender
   * names its thread count where it has one ({@code prefetch-2}, {@code duckdb-2}, {@code trino-2},
   * {@code floor-2}).
   */
  static String key(BenchResult r) {
    return switch (r.benchmark()) {
      case "ScanBenchmark" ->
          r.param("format", "?") + "/" + r.param("storage", "?") + "/" + r.param("reader", "?");
      case "RemoteScanBenchmark" -> r.param("format", "?") + "/remote/" + r.param("reader", "?");
      case "HardwoodBenchmark" ->
          "parquet/" + r.param("storage", "local") + "/hardwood-" + r.param("threads", "?");
      case "DuckDbBenchmark" -> "parquet/local/duckdb-" + r.param("threads", "?");
      case "TrinoScanBenchmark" ->
          r.param("format", "?")
              + "/"
              + r.param("storage", "local")
              + "/trino-"
              + r.param("threads", "?");
      case "LineitemBenchmark" -> {
        String table = r.param("table", "?");
        String reader = r.param("reader", "?");
        String id =
            reader.equals("native")
                ? (table.startsWith("parquet") ? "duckdb-2" : "library")
                : reader;
        yield "lineitem-" + table + "/local/" + id;
      }
      case "TrinoLineitemBenchmark" ->
          "lineitem-" + r.param("table", "?") + "/local/trino-" + r.param("threads", "2");
      case "DecompressionFloorBenchmark" -> {
        String table = r.param("table", "?");
        String data = table.equals("scan") ? "parquet" : "lineitem-parquet-" + table.substring(9);
        String work = r.param("work", "?").equals("copy") ? "copy-" : "floor-";
        yield data + "/local/" + work + r.param("threads", "?");
      }
      default -> null;
    };
  }

  /** The display name of a data set of {@link #key}. */
  static String dataLabel(String data) {
    return switch (data) {
      case "parquet" -> "Parquet (scan.parquet)";
      case "orc" -> "ORC (scan.orc)";
      default -> {
        if (data.startsWith("lineitem-")) {
          String rest = data.substring("lineitem-".length());
          int dash = rest.indexOf('-');
          String format = dash < 0 ? rest : rest.substring(0, dash);
          String group = dash < 0 ? "?" : rest.substring(dash + 1);
          yield (format.equals("parquet")
                  ? "lineitem Parquet (DuckDB's)"
                  : "lineitem ORC (orc-core's)")
              + ", "
              + (group.equals("all") ? "all columns" : group);
        }
        yield data;
      }
    };
  }

  /** Whether a data set of {@link #key} is Parquet. */
  static boolean isParquet(String data) {
    return data.equals("parquet") || data.startsWith("lineitem-parquet");
  }

  /** The threads (producers, for ours) of a contender id: 1 for the single readers. */
  static int threads(String id) {
    if (id.equals("single") || id.equals("library")) {
      return 1;
    }
    int dash = id.lastIndexOf('-');
    try {
      return Integer.parseInt(id.substring(dash + 1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return 1;
    }
  }

  /** The display name of a contender id. */
  static String label(String format, String id) {
    if (id.equals("single")) {
      return "ours, single reader";
    }
    if (id.equals("library")) {
      return isParquet(format) ? "parquet-hadoop (column API)" : "orc-core (vectorized)";
    }
    if (id.startsWith("trino-")) {
      String n = id.substring("trino-".length());
      return "Trino ("
          + (isParquet(format) ? "trino-parquet" : "trino-orc")
          + "), "
          + n
          + (n.equals("1") ? " thread" : " threads");
    }
    if (id.startsWith("floor-")) {
      String n = id.substring("floor-".length());
      return "floor: decompression, " + n + (n.equals("1") ? " thread" : " threads");
    }
    if (id.startsWith("copy-")) {
      String n = id.substring("copy-".length());
      return "floor: one copy of the decompressed bytes, "
          + n
          + (n.equals("1") ? " thread" : " threads");
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
    CurrentFigures current = new CurrentFigures(byKey, cpu);
    out.append(current.current());
    out.append(current.targets());
    for (String format : FORMATS) {
      for (String storage : STORAGES) {
        out.append(table(format, storage));
      }
    }
    out.append(ratios());
    String memory = MemoryTable.markdown(results);
    if (!memory.isEmpty()) {
      int heading = memory.indexOf("\n\n");
      out.append(memory, 0, heading + 2)
          .append(cpu)
          .append("\n\n")
          .append(memory.substring(heading + 2));
    }
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
    String lineitem = lineitemRows();
    if (lineitem != null) {
      out.append("; the lineitem files ").append(lineitem).append(" rows");
    }
    out.append(".\n\n");
    return out.toString();
  }

  /** The rows of the lineitem files when the results hold a trial of them, else null. */
  private String lineitemRows() {
    for (BenchResult r : results) {
      String key = key(r);
      if (key != null && key.startsWith("lineitem-")) {
        String rows = r.systemProperty(LineitemData.ROWS_PROPERTY);
        return String.format(
            Locale.ROOT, "%,d", rows != null ? Long.parseLong(rows) : LineitemData.DEFAULT_ROWS);
      }
    }
    return null;
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
        .append("\n\n")
        .append(cpu)
        .append("\n\n");
    boolean floors = format.equals("parquet") && storage.equals("local");
    CurrentFigures current = new CurrentFigures(byKey, cpu);
    out.append(
        "| contender | median s/scan | mean s/scan | error (99.9%) | rows/s | MiB/s |"
            + " vs library |"
            + (floors ? " vs floor |" : "")
            + "\n");
    out.append("|---|--:|--:|--:|--:|--:|--:|").append(floors ? "--:|" : "").append('\n');
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
          .append(
              library == null || id.equals("library") || isFloor(id)
                  ? ""
                  : ratio(library.median() / median))
          .append(" |");
      if (floors) {
        out.append(' ')
            .append(isFloor(id) ? "" : current.overFloor(format, storage, threads(id), median))
            .append(" |");
      }
      out.append('\n');
    }
    return out.append('\n').toString();
  }

  private static boolean isFloor(String id) {
    return id.startsWith("floor-") || id.startsWith("copy-");
  }

  /**
   * Table order: ours single, ours by producers, the library, Hardwood, DuckDB, Trino, the floors.
   */
  static int order(String id) {
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
    if (id.startsWith("trino-")) {
      return 500 + number(id);
    }
    if (id.startsWith("floor-")) {
      return 600 + number(id);
    }
    if (id.startsWith("copy-")) {
      return 700 + number(id);
    }
    return 800;
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
    for (String format : FORMATS) {
      ratio(rowsOut, format, "local", "single", "trino-1");
      ratio(rowsOut, format, "local", "prefetch-2", "trino-2");
      ratio(rowsOut, format, "remote", "prefetch-2", "trino-2");
    }
    if (rowsOut.length() == 0) {
      return "";
    }
    return "### Ratios (same run; speedup = their median / our median, above 1 = ours faster)\n\n"
        + cpu
        + "\n\n"
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
    List<Path> resultsPaths = new ArrayList<>();
    Path data = null;
    String command = null;
    Long rowsArg = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--data" -> data = Path.of(value(args, ++i));
        case "--command" -> command = value(args, ++i);
        case "--rows" -> rowsArg = Long.parseLong(value(args, ++i));
        default -> {
          if (args[i].startsWith("--")) {
            System.err.println(
                "usage: Report [results.json...] [--data DIR] [--command TEXT]" + " [--rows N]");
            System.exit(2);
          }
          resultsPaths.add(Path.of(args[i]));
        }
      }
    }
    if (resultsPaths.isEmpty()) {
      resultsPaths.add(BenchData.dir().resolve("results.json"));
    }
    // Several files: every figure of each, the later file's where two hold the same trial.
    List<BenchResult> results = new ArrayList<>();
    Path resultsPath = null;
    for (Path path : resultsPaths) {
      if (!Files.isRegularFile(path)) {
        System.err.println("report: " + path + " not found; run bin/bench first");
        System.exit(2);
      }
      results.addAll(ResultsFile.read(path));
      resultsPath = path;
    }
    if (results.isEmpty()) {
      System.err.println("report: " + resultsPaths + " hold no results");
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
