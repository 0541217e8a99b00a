package dev.prefetch.examples;

import dev.prefetch.examples.internal.Json;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code verify}: every value of our read against the format library's own reader, column by
 * column (a checksum per column over every value in row order).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Check every value against the format library's own reader; exit 1 naming the "
        + "first differing column.")
final class VerifyCommand extends FileCommand {

  @Override
  public Integer call() {
    setUp();
    List<DataFiles.Checked> checked = checkFiles();
    if (args.rows != null && args.filter != null) {
      throw new CliException(CliException.USAGE,
          "--rows and --filter cannot be combined in verify (the library readers filter pages)");
    }
    PrintWriter out = out();
    boolean ok = true;
    for (DataFiles.Checked file : checked) {
      Object filter = filterFor(file);
      Contender ours = Contender.ours(args.noPrefetch ? "single" : "prefetch",
          args.readOptions(true), context, filter);
      Contender library = Contender.library(conf, args.columns, filter, args.rowGroups,
          args.rowRanges() == null ? null : args.rowRanges().get(0));
      Contender.Scan a = timed(ours, file, true, 0).scan();
      Contender.Scan b = timed(library, file, true, 0).scan();
      String problem = difference(a, b);
      ok &= problem == null;
      if (args.json) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("file", file.name());
        json.put("format", file.format());
        json.put("rows", a.rows());
        json.put("columns", a.columnNames().size());
        json.put("checksum", a.checksum());
        json.put("libraryChecksum", b.checksum());
        json.put("ok", problem == null);
        json.put("problem", problem);
        out.println(Json.write(json));
      } else {
        out.printf(Locale.ROOT, "%s: %s%n", file.name(), problem == null
            ? "OK, " + a.rows() + " rows x " + a.columnNames().size() + " columns equal "
                + Contender.libraryName(file.format()) + " (checksum " + a.checksum() + ")"
            : "MISMATCH: " + problem);
      }
      if (problem != null) {
        spec.commandLine().getErr().println("prefetch-scan: " + file.name() + ": " + problem);
      }
      out.flush();
    }
    return ok ? 0 : CliException.MISMATCH;
  }

  /** The first difference between our read and the library's, or null. */
  static String difference(Contender.Scan ours, Contender.Scan library) {
    if (!ours.columnNames().equals(library.columnNames())) {
      return "columns differ: " + ours.columnNames() + " vs " + library.columnNames();
    }
    for (int c = 0; c < ours.columnChecksums().size(); c++) {
      if (!ours.columnChecksums().get(c).equals(library.columnChecksums().get(c))) {
        return "column '" + ours.columnNames().get(c) + "' differs from the library's values"
            + " (checksum " + ours.columnChecksums().get(c) + " vs "
            + library.columnChecksums().get(c) + ")";
      }
    }
    if (ours.rows() != library.rows()) {
      return "row count differs: " + ours.rows() + " vs " + library.rows();
    }
    if (!ours.checksum().equals(library.checksum())) {
      return "checksum differs: " + ours.checksum() + " vs " + library.checksum();
    }
    return null;
  }
}
