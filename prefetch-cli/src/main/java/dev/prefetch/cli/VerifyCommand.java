package dev.prefetch.cli;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.cli.internal.Json;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.testkit.baseline.RowProbe;
import dev.prefetch.testkit.scan.Contender;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code verify}: every value of our read against the format library's own reader, column by column
 * (a checksum per column over every value in row order). The library's values are taken through the
 * reader's documented type mapping (README, "Type mapping"), so a correct file verifies. Every
 * column that differs is named, with the first row where it differs and both values there (found by
 * two more reads of each side, only when something differs).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Check every value against the format library's own reader; exit 1 naming "
            + "every differing column, its first differing row and both values there.")
final class VerifyCommand extends FileCommand {

  @Override
  public Integer call() {
    setUp();
    List<DataFiles.Checked> checked = checkFiles();
    rejectRowsWithFilter("verify");
    ReadOptions options = args.readOptions(true);
    boolean int96Nanos = ParquetOptions.from(options).int96Unit() == DataType.TimeUnit.NANOS;
    PrintWriter out = out();
    boolean ok = true;
    for (DataFiles.Checked file : checked) {
      Object filter = filterFor(file);
      Contender ours =
          Contender.ours(args.noPrefetch ? "single" : "prefetch", options, context, filter);
      Contender library =
          Contender.library(
              conf,
              args.columns,
              filter,
              args.rowGroups,
              args.rowRanges() == null ? null : args.rowRanges().get(0),
              int96Nanos);
      Contender.Scan a = timed(ours, file, true, 0).scan();
      Contender.Scan b = timed(library, file, true, 0).scan();
      List<String> problems = differences(a, b, Contender.libraryName(file.format()));
      if (!differingColumns(a, b).isEmpty()) {
        long offset = args.rowRanges() == null ? 0 : args.rowRanges().get(0).start();
        try {
          problems = locate(ours, file.path(), library, file.path(), file.format(), a, b, offset);
        } catch (IOException | UncheckedIOException e) {
          throw readError(file.name(), e);
        }
      }
      ok &= problems.isEmpty();
      if (args.json) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("file", file.name());
        json.put("format", file.format());
        json.put("rows", a.rows());
        json.put("columns", a.columnNames().size());
        json.put("checksum", a.checksum());
        json.put("libraryChecksum", b.checksum());
        json.put("ok", problems.isEmpty());
        json.put("problem", problems.isEmpty() ? null : String.join("; ", problems));
        json.put("problems", problems);
        out.println(Json.write(json));
      } else {
        out.printf(
            Locale.ROOT,
            "%s: %s%n",
            file.name(),
            problems.isEmpty()
                ? "OK, "
                    + a.rows()
                    + " rows x "
                    + a.columnNames().size()
                    + " columns equal "
                    + Contender.libraryName(file.format())
                    + " (checksum "
                    + a.checksum()
                    + ")"
                : "MISMATCH: " + String.join("; ", problems));
      }
      for (String problem : problems) {
        spec.commandLine().getErr().println("prefetch-scan: " + file.name() + ": " + problem);
      }
      out.flush();
    }
    return ok ? 0 : CliException.MISMATCH;
  }

  /** The columns whose checksums differ (none when the column lists differ). */
  static List<Integer> differingColumns(Contender.Scan ours, Contender.Scan library) {
    List<Integer> columns = new ArrayList<>();
    if (!ours.columnNames().equals(library.columnNames())) {
      return columns;
    }
    for (int c = 0; c < ours.columnChecksums().size(); c++) {
      if (!ours.columnChecksums().get(c).equals(library.columnChecksums().get(c))) {
        columns.add(c);
      }
    }
    return columns;
  }

  /** Every difference between our read and the library's found from the checksums. */
  static List<String> differences(Contender.Scan ours, Contender.Scan library, String name) {
    List<String> problems = new ArrayList<>();
    if (!ours.columnNames().equals(library.columnNames())) {
      problems.add("columns differ: " + ours.columnNames() + " vs " + library.columnNames());
      return problems;
    }
    for (int c : differingColumns(ours, library)) {
      problems.add(checksumsDiffer(ours, library, c, name));
    }
    if (problems.isEmpty() && ours.rows() != library.rows()) {
      problems.add("row count differs: " + ours.rows() + " vs " + library.rows());
    }
    if (problems.isEmpty() && !ours.checksum().equals(library.checksum())) {
      problems.add("checksum differs: " + ours.checksum() + " vs " + library.checksum());
    }
    return problems;
  }

  /**
   * Verifies {@code oursFile} read by {@code ours} against {@code libraryFile} read by {@code
   * library} (the same file in the command; two files in a test that changed one): every problem
   * found, none when they agree.
   */
  static List<String> verify(
      Contender ours,
      org.apache.hadoop.fs.Path oursFile,
      Contender library,
      org.apache.hadoop.fs.Path libraryFile,
      String format)
      throws IOException {
    try (dev.prefetch.testkit.scan.ProgressBar none =
        dev.prefetch.testkit.scan.ProgressBar.none()) {
      Contender.Scan a = ours.scan(oursFile, format, true, none);
      Contender.Scan b = library.scan(libraryFile, format, true, none);
      if (differingColumns(a, b).isEmpty()) {
        return differences(a, b, Contender.libraryName(format));
      }
      return locate(ours, oursFile, library, libraryFile, format, a, b, 0);
    }
  }

  /**
   * For every differing column, the first row where the reads part and both values there: one read
   * of each side hashes every row of those columns, one more renders the row.
   */
  static List<String> locate(
      Contender ours,
      org.apache.hadoop.fs.Path oursFile,
      Contender library,
      org.apache.hadoop.fs.Path libraryFile,
      String format,
      Contender.Scan a,
      Contender.Scan b,
      long rowOffset)
      throws IOException {
    String name = Contender.libraryName(format);
    int columns = a.columnNames().size();
    boolean[] probed = new boolean[columns];
    List<Integer> differing = differingColumns(a, b);
    for (int c : differing) {
      probed[c] = true;
    }
    long[] none = new long[columns];
    Arrays.fill(none, -1);
    RowProbe oursRows = new RowProbe(columns, probed, none);
    RowProbe libraryRows = new RowProbe(columns, probed, none);
    ours.probe(oursFile, format, oursRows);
    library.probe(libraryFile, format, libraryRows);
    long[] first = new long[columns];
    Arrays.fill(first, -1);
    for (int c : differing) {
      first[c] = oursRows.firstDifference(libraryRows, c);
    }
    RowProbe oursValues = new RowProbe(columns, probed, first);
    RowProbe libraryValues = new RowProbe(columns, probed, first);
    ours.probe(oursFile, format, oursValues);
    library.probe(libraryFile, format, libraryValues);
    List<String> problems = new ArrayList<>();
    for (int c : differing) {
      String column = "column '" + a.columnNames().get(c) + "'";
      if (first[c] < 0) {
        problems.add(checksumsDiffer(a, b, c, name) + ", though no row does");
        continue;
      }
      problems.add(
          column
              + " differs from "
              + name
              + " first at row "
              + (first[c] + rowOffset)
              + ": ours "
              + shown(oursValues.rendered(c))
              + " vs "
              + name
              + " "
              + shown(libraryValues.rendered(c)));
    }
    return problems;
  }

  /** That column {@code c} differs between the reads, with both checksums. */
  private static String checksumsDiffer(
      Contender.Scan ours, Contender.Scan library, int c, String name) {
    return "column '"
        + ours.columnNames().get(c)
        + "' differs from "
        + name
        + "'s values (checksum "
        + ours.columnChecksums().get(c)
        + " vs "
        + library.columnChecksums().get(c)
        + ")";
  }

  private static String shown(String rendered) {
    return rendered == null ? "(no such row)" : rendered;
  }
}
