package dev.prefetch.cli;

import dev.prefetch.ReadOptions;
import dev.prefetch.cli.internal.Format;
import dev.prefetch.cli.internal.Json;
import dev.prefetch.testkit.scan.Contender;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code compare}: our single reader, our prefetching reader and the format library's own fastest
 * reader on the same files, in turns, with the same checksum required of all.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Single reader vs prefetch vs the format library's own reader on the same "
          + "files, in alternating repeated runs after a warm-up; every contender must produce the "
          + "same checksum (exit 1 otherwise).",
      "--repeat defaults to 3 here."
    })
final class CompareCommand extends FileCommand {

  static final int DEFAULT_REPEAT = 3;

  @Override
  public Integer call() {
    setUp();
    List<DataFiles.Checked> checked = checkFiles();
    rejectRowsWithFilter("compare");
    int repeat = args.repeat == null ? DEFAULT_REPEAT : args.repeat;
    PrintWriter out = out();
    boolean mismatch = false;
    for (DataFiles.Checked file : checked) {
      List<RunResult> results = compare(file, repeat);
      mismatch |= !report(out, file, results);
      out.flush();
    }
    return mismatch ? CliException.MISMATCH : 0;
  }

  List<RunResult> compare(DataFiles.Checked file, int repeat) {
    Object filter = filterFor(file);
    ReadOptions single = args.readOptions(false);
    ReadOptions prefetch = args.readOptions(true);
    String library = Contender.libraryName(file.format());
    List<Contender> contenders = new ArrayList<>();
    List<String> names = new ArrayList<>();
    contenders.add(Contender.ours("single", single, context, filter));
    names.add("single");
    if (!args.noPrefetch) {
      contenders.add(Contender.ours("prefetch", prefetch, context, filter));
      names.add("prefetch(" + prefetch.parallelism() + ")");
    }
    contenders.add(
        Contender.library(
            conf,
            args.columns,
            filter,
            args.rowGroups,
            args.rowRanges() == null ? null : args.rowRanges().get(0)));
    names.add(library);
    return rounds(contenders, names, file, repeat, true);
  }

  /** Prints the results of one file; false when the checksums differ. */
  boolean report(PrintWriter out, DataFiles.Checked file, List<RunResult> results) {
    RunResult baseline = results.get(results.size() - 1);
    boolean agree = true;
    for (RunResult r : results) {
      agree &= r.checksum().equals(baseline.checksum()) && r.rows() == baseline.rows();
    }
    if (args.json) {
      for (RunResult r : results) {
        Map<String, Object> json = r.toJson();
        json.put("baseline", baseline.contender());
        json.put("speedupVsBaseline", r.seconds() <= 0 ? 0 : baseline.seconds() / r.seconds());
        json.put("checksumsAgree", agree);
        out.println(Json.write(json));
      }
    } else {
      out.printf(
          Locale.ROOT,
          "%s (%s, %,d rows, %d columns, %s)%n",
          file.name(),
          file.format(),
          baseline.rows(),
          baseline.columns(),
          Format.bytes(file.length()));
      out.printf(
          Locale.ROOT,
          "  %-16s %10s %10s %9s %12s  %-16s %s%n",
          "contender",
          "median s",
          "rows/s",
          "MiB/s",
          "vs " + baseline.contender(),
          "checksum",
          "runs");
      for (RunResult r : results) {
        out.printf(
            Locale.ROOT,
            "  %-16s %10s %10s %9.1f %11.2fx  %-16s %s%n",
            r.contender(),
            Format.seconds(r.seconds()),
            Format.count(r.rowsPerSecond()),
            r.megabytesPerSecond(),
            r.seconds() <= 0 ? 0 : baseline.seconds() / r.seconds(),
            r.checksum(),
            r.secondsEach().size());
      }
      out.println(agree ? "  checksums agree" : "  CHECKSUMS DIFFER");
    }
    if (!agree) {
      spec.commandLine()
          .getErr()
          .println(
              "prefetch-scan: "
                  + file.name()
                  + ": contenders read different values: "
                  + describe(results));
    }
    return agree;
  }

  private static String describe(List<RunResult> results) {
    StringBuilder sb = new StringBuilder();
    for (RunResult r : results) {
      sb.append(sb.length() == 0 ? "" : ", ")
          .append(r.contender())
          .append(' ')
          .append(r.checksum())
          .append(" (")
          .append(r.rows())
          .append(" rows)");
    }
    return sb.toString();
  }
}
