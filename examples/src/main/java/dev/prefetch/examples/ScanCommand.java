package dev.prefetch.examples;

import dev.prefetch.examples.internal.EventRecording;
import dev.prefetch.examples.internal.Format;
import dev.prefetch.examples.internal.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scan}: reads files with our reader and reports what it read and how fast. */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = "Scan files and print rows, batches, bytes, seconds, rows/s and a checksum.")
final class ScanCommand extends FileCommand {

  @Option(
      names = "--jfr",
      paramLabel = "OUT.jfr",
      description =
          "Record the reader's JFR events (plans, range reads, waits, releases, cache "
              + "lookups) in this process and write them to OUT.jfr.")
  Path jfr;

  @Override
  public Integer call() {
    if (jfr == null) {
      return scan();
    }
    EventRecording recording = EventRecording.start(jfr);
    int code;
    try {
      code = scan();
    } finally {
      try {
        recording.close();
      } catch (IOException e) {
        throw new CliException(
            CliException.READ_ERROR,
            "cannot write the recording to " + jfr + ": " + e.getMessage(),
            e);
      }
    }
    return code;
  }

  private int scan() {
    setUp();
    List<DataFiles.Checked> checked = checkFiles();
    PrintWriter out = out();
    boolean header = false;
    for (DataFiles.Checked file : checked) {
      Contender ours =
          Contender.ours(
              args.noPrefetch ? "single" : "prefetch",
              args.readOptions(true),
              context,
              filterFor(file));
      boolean warmUp = args.repeat != null;
      int repeat = args.repeat == null ? 1 : args.repeat;
      RunResult r = rounds(List.of(ours), List.of(ours.name()), file, repeat, warmUp).get(0);
      if (args.rowGroups != null) {
        RowGroupCheck.check(
            file,
            args.rowGroups,
            selectedRows.get(file),
            r.rows(),
            args.rows != null || args.filter != null);
      }
      if (args.json) {
        out.println(Json.write(r.toJson()));
      } else {
        if (!header) {
          out.printf(
              Locale.ROOT,
              "%-28s %-8s %12s %8s %11s %9s %10s %-9s %s%n",
              "file",
              "format",
              "rows",
              "batches",
              "bytes",
              "seconds",
              "rows/s",
              "prefetch",
              "checksum");
          header = true;
        }
        out.printf(
            Locale.ROOT,
            "%-28s %-8s %,12d %8d %11s %9s %10s %-9s %s%n",
            file.name(),
            r.format(),
            r.rows(),
            r.batches(),
            Format.bytes(r.bytesRead()),
            Format.seconds(r.seconds()),
            Format.count(r.rowsPerSecond()),
            r.prefetch() ? "yes(" + r.parallelism() + ")" : "no",
            r.checksum());
        if (r.secondsEach().size() > 1) {
          out.printf(
              Locale.ROOT,
              "  runs: %s (median %s s)%n",
              r.secondsEach().stream().map(Format::seconds).toList(),
              Format.seconds(r.seconds()));
        }
        if (r.cpuSeconds() >= 0) {
          out.printf(
              Locale.ROOT,
              "  cpu: %s (median %s s of process CPU, every thread)%n",
              r.cpuSecondsEach().stream().map(Format::seconds).toList(),
              Format.seconds(r.cpuSeconds()));
        }
        if (r.footerReads() >= 0) {
          out.printf(
              Locale.ROOT,
              "  footer: %d reads, %,d bytes over %d open(s)%n",
              r.footerReads(),
              r.footerBytesRead(),
              r.secondsEach().size());
        }
        if (r.cache() != null) {
          out.printf(
              Locale.ROOT,
              "  cache: %d hits, %d misses, %d bypasses, %d evictions%n",
              r.cache().hits(),
              r.cache().misses(),
              r.cache().bypasses(),
              r.cache().evictions());
        }
      }
      out.flush();
    }
    return 0;
  }
}
