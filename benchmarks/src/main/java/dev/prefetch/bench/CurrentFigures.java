package dev.prefetch.bench;

import dev.prefetch.bench.report.BenchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's first tables, from the figures by {@link Report#key}: the current table (every
 * figure of the results once, the latest where several results files name the same trial, each
 * beside its floor and its rivals with the same thread count) and the targets (the ratios the
 * reader's goals are stated in, with the goal and whether the figures meet it).
 *
 * <p>Ratios: "vs floor" is the figure over the decompression floor of the same data and columns
 * with the same threads (for 4 and 8 producers the floor with the most threads measured, 2 on a
 * 2-core machine), local Parquet only; "vs X" is X's median over the figure's (above 1: faster than
 * X), with the same thread count; "vs library" against the format library's single reader.
 */
final class CurrentFigures {

  /** A goal: {@code ours} against {@code theirs} on {@code data}, at least {@code goal}. */
  private record Target(String data, String ours, String theirs, double goal, String why) {}

  /** A goal of ours over the floor: at most {@code goal} times the floor's time. */
  private record FloorTarget(String data, String ours, double goal) {}

  private static final List<Target> TARGETS =
      List.of(
          new Target("parquet", "prefetch-2", "duckdb-2", 1.3, "ahead of DuckDB"),
          new Target("parquet", "prefetch-2", "trino-2", 1.2, "ahead of Trino"),
          new Target("parquet", "prefetch-2", "hardwood-2", 1.5, "ahead of Hardwood"),
          new Target("parquet", "prefetch-2", "library", 6, "ahead of parquet-hadoop"),
          new Target("lineitem-parquet-all", "prefetch-2", "duckdb-2", 1.3, "ahead of DuckDB"),
          new Target("lineitem-parquet-all", "prefetch-2", "trino-2", 1.2, "ahead of Trino"),
          new Target(
              "lineitem-parquet-integers", "prefetch-2", "duckdb-2", 1, "no group behind DuckDB"),
          new Target(
              "lineitem-parquet-decimals", "prefetch-2", "duckdb-2", 1, "no group behind DuckDB"),
          new Target(
              "lineitem-parquet-dates", "prefetch-2", "duckdb-2", 1, "no group behind DuckDB"),
          new Target(
              "lineitem-parquet-strings", "prefetch-2", "duckdb-2", 1, "no group behind DuckDB"),
          new Target(
              "lineitem-parquet-comment", "prefetch-2", "duckdb-2", 1, "no group behind DuckDB"),
          new Target("orc", "prefetch-2", "library", 3.5, "ahead of orc-core"),
          new Target("orc", "single", "trino-1", 1, "one reader as fast as Trino's"),
          new Target("orc", "prefetch-2", "trino-2", 1.5, "ahead of Trino with 2"),
          new Target("lineitem-orc-all", "prefetch-2", "library", 4, "ahead of orc-core"),
          new Target("lineitem-orc-all", "prefetch-2", "trino-2", 1.5, "ahead of Trino with 2"));

  private static final List<FloorTarget> FLOOR_TARGETS =
      List.of(
          new FloorTarget("parquet", "prefetch-2", 1.6),
          new FloorTarget("lineitem-parquet-all", "prefetch-2", 1.6));

  private final Map<String, BenchResult> byKey;
  private final String cpu;

  /**
   * @param byKey the figures by {@link Report#key}, in the order to list them
   * @param cpu the CPU line every table carries
   */
  CurrentFigures(Map<String, BenchResult> byKey, String cpu) {
    this.byKey = byKey;
    this.cpu = cpu;
  }

  /** The current table, or nothing without figures. */
  String current() {
    List<String> keys = new ArrayList<>(byKey.keySet());
    if (keys.isEmpty()) {
      return "";
    }
    keys.sort(
        (a, b) -> {
          String[] x = a.split("/", 3);
          String[] y = b.split("/", 3);
          int c = Integer.compare(dataOrder(x[0]), dataOrder(y[0]));
          if (c == 0) {
            c = x[0].compareTo(y[0]);
          }
          if (c == 0) {
            c = x[1].compareTo(y[1]);
          }
          return c != 0 ? c : Integer.compare(Report.order(x[2]), Report.order(y[2]));
        });
    StringBuilder out = new StringBuilder("### Current figures\n\n");
    out.append(cpu).append("\n\n");
    out.append(
        "| data | storage | contender | threads | median s | vs floor | vs DuckDB | vs Trino |"
            + " vs Hardwood | vs library |\n");
    out.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (String key : keys) {
      String[] k = key.split("/", 3);
      String data = k[0];
      String storage = k[1];
      String id = k[2];
      int threads = Report.threads(id);
      double median = byKey.get(key).median();
      boolean floorRow = id.startsWith("floor-") || id.startsWith("copy-");
      out.append("| ")
          .append(Report.dataLabel(data))
          .append(" | ")
          .append(storage)
          .append(" | ")
          .append(Report.label(data, id))
          .append(" | ")
          .append(threads)
          .append(" | ")
          .append(seconds(median))
          .append(" | ")
          .append(floorRow ? "" : overFloor(data, storage, threads, median))
          .append(" | ")
          .append(floorRow ? "" : against(data, storage, id, "duckdb-" + threads, median))
          .append(" | ")
          .append(floorRow ? "" : against(data, storage, id, "trino-" + threads, median))
          .append(" | ")
          .append(floorRow ? "" : against(data, storage, id, "hardwood-" + threads, median))
          .append(" | ")
          .append(floorRow ? "" : against(data, storage, id, "library", median))
          .append(" |\n");
    }
    return out.append('\n').toString();
  }

  /** The targets, or nothing when the results hold none of their figures. */
  String targets() {
    StringBuilder rows = new StringBuilder();
    for (Target t : TARGETS) {
      BenchResult ours = byKey.get(t.data() + "/local/" + t.ours());
      BenchResult theirs = byKey.get(t.data() + "/local/" + t.theirs());
      if (ours == null || theirs == null) {
        continue;
      }
      double ratio = theirs.median() / ours.median();
      int threads = Report.threads(t.ours());
      rows.append("| ")
          .append(Report.dataLabel(t.data()))
          .append(" | ")
          .append(Report.label(t.data(), t.ours()))
          .append(" vs ")
          .append(Report.label(t.data(), t.theirs()))
          .append(" | ")
          .append(seconds(ours.median()))
          .append(" | ")
          .append(seconds(theirs.median()))
          .append(" | ")
          .append(ratio(ratio))
          .append(" | at least ")
          .append(ratio(t.goal()))
          .append(" (")
          .append(t.why())
          .append(") | ")
          .append(ratio >= t.goal() ? "yes" : "no")
          .append(" | ")
          .append(overFloor(t.data(), "local", threads, ours.median()))
          .append(" | ")
          .append(overFloor(t.data(), "local", Report.threads(t.theirs()), theirs.median()))
          .append(" |\n");
    }
    for (FloorTarget t : FLOOR_TARGETS) {
      BenchResult ours = byKey.get(t.data() + "/local/" + t.ours());
      BenchResult floor = floor(t.data(), "local", Report.threads(t.ours()));
      if (ours == null || floor == null) {
        continue;
      }
      double over = ours.median() / floor.median();
      rows.append("| ")
          .append(Report.dataLabel(t.data()))
          .append(" | ")
          .append(Report.label(t.data(), t.ours()))
          .append(" over the decompression floor | ")
          .append(seconds(ours.median()))
          .append(" | ")
          .append(seconds(floor.median()))
          .append(" | ")
          .append(ratio(over))
          .append(" | at most ")
          .append(ratio(t.goal()))
          .append(" (close to the floor) | ")
          .append(over <= t.goal() ? "yes" : "no")
          .append(" | ")
          .append(ratio(over))
          .append(" | |\n");
    }
    if (rows.length() == 0) {
      return "";
    }
    return "### Targets (same run; ratio = their median / ours, or ours / the floor's)\n\n"
        + cpu
        + "\n\n"
        + "| data | figure | ours s | theirs s | ratio | goal | met | ours / floor |"
        + " theirs / floor |\n"
        + "|---|---|--:|--:|--:|---|---|--:|--:|\n"
        + rows
        + "\n";
  }

  /** The figure over the floor of its data, columns and threads, or blank where none applies. */
  String overFloor(String data, String storage, int threads, double median) {
    BenchResult floor = storage.equals("local") ? floor(data, storage, threads) : null;
    return floor == null ? "" : ratio(median / floor.median());
  }

  /** The decompression floor with {@code threads} threads, else with the most below. */
  private BenchResult floor(String data, String storage, int threads) {
    for (int n = threads; n >= 1; n--) {
      BenchResult floor = byKey.get(data + "/" + storage + "/floor-" + n);
      if (floor != null) {
        return floor;
      }
    }
    return null;
  }

  /** Their median over ours, or blank when they are not measured or are the figure itself. */
  private String against(String data, String storage, String id, String theirs, double median) {
    if (id.equals(theirs)) {
      return "";
    }
    BenchResult r = byKey.get(data + "/" + storage + "/" + theirs);
    return r == null ? "" : ratio(r.median() / median);
  }

  private static int dataOrder(String data) {
    if (data.equals("parquet")) {
      return 0;
    }
    if (data.equals("orc")) {
      return 1;
    }
    if (data.startsWith("lineitem-parquet-all")) {
      return 2;
    }
    if (data.startsWith("lineitem-parquet")) {
      return 3;
    }
    if (data.startsWith("lineitem-orc-all")) {
      return 4;
    }
    return 5;
  }

  static String seconds(double s) {
    return String.format(Locale.ROOT, s < 10 ? "%.3f" : "%.2f", s);
  }

  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }
}
