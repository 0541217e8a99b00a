package dev.prefetch.cli;

import dev.prefetch.cli.internal.EventRecording;
import dev.prefetch.cli.internal.Format;
import dev.prefetch.cli.internal.Json;
import dev.prefetch.testkit.scan.Contender;
import dev.prefetch.testkit.scan.ScanConsumer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
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

  @Option(
      names = "--per-file",
      description =
          "Scan each FILE on its own, with a result line each. Without it, the files are read "
              + "as one stream in the order given (one result line; its checksum is that of all "
              + "their rows one file after another).")
  boolean perFile;

  @Option(
      names = "--consumer",
      paramLabel = "checksum|sums",
      converter = ConsumerConverter.class,
      description =
          "What every value read is fed to, in the timed runs too: checksum (default; the content"
              + " checksum that compare and verify use, a multiply and a rotation per value) or"
              + " sums (a sum per column and a hash of each string's bytes, the least work that"
              + " touches every value, as an engine's cheapest aggregate; the checksum column then"
              + " shows the sums' value).")
  ScanConsumer consumer = ScanConsumer.CHECKSUM;

  /** {@code checksum} or {@code sums}, in any case. */
  static final class ConsumerConverter implements CommandLine.ITypeConverter<ScanConsumer> {
    @Override
    public ScanConsumer convert(String value) {
      for (ScanConsumer c : ScanConsumer.values()) {
        if (c.label().equalsIgnoreCase(value)) {
          return c;
        }
      }
      throw new CommandLine.TypeConversionException(
          "expected checksum or sums, not '" + value + "'");
    }
  }

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
    List<Target> targets = new ArrayList<>();
    if (perFile) {
      for (DataFiles.Checked file : checked) {
        targets.add(Target.of(file));
      }
    } else {
      targets.add(Target.stream(checked));
    }
    PrintWriter out = out();
    boolean header = false;
    for (Target target : targets) {
      Contender ours =
          Contender.ours(
              args.noPrefetch ? "single" : "prefetch",
              args.readOptions(true),
              context,
              filterFor(target),
              consumer);
      boolean warmUp = args.repeat != null;
      int repeat = args.repeat == null ? 1 : args.repeat;
      RunResult r = rounds(List.of(ours), List.of(ours.name()), target, repeat, warmUp).get(0);
      if (args.rowGroups != null) {
        long expected = 0;
        for (DataFiles.Checked file : target.files()) {
          expected += selectedRows.get(file);
        }
        RowGroupCheck.check(
            new DataFiles.Checked(
                target.name(), target.first().path(), target.format(), target.length()),
            args.rowGroups,
            expected,
            r.rows(),
            args.rows != null || args.filter != null);
      }
      if (args.json) {
        Map<String, Object> json = withFiles(r.toJson(), target);
        json.put("consumer", consumer.label());
        out.println(Json.write(json));
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
              consumer == ScanConsumer.SUMS ? "sums" : "checksum");
          header = true;
        }
        out.printf(
            Locale.ROOT,
            "%-28s %-8s %,12d %8d %11s %9s %10s %-9s %s%n",
            target.name(),
            r.format(),
            r.rows(),
            r.batches(),
            Format.bytes(r.bytesRead()),
            Format.seconds(r.seconds()),
            Format.count(r.rowsPerSecond()),
            r.prefetch() ? "yes(" + r.parallelism() + ")" : "no",
            r.checksum());
        if (target.isStream()) {
          out.printf(
              Locale.ROOT,
              "  files: %d in one stream, %s to %s%n",
              target.files().size(),
              target.first().name(),
              target.files().get(target.files().size() - 1).name());
        }
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

  /**
   * The filter of a target: the first file's predicate, which a stream's other files share; a
   * stream of two formats cannot share one.
   */
  private Object filterFor(Target target) {
    if (args.filter != null && target.format().equals("mixed")) {
      throw new CliException(
          CliException.USAGE,
          "--filter over Parquet and ORC files at once needs --per-file: a filter is built for"
              + " one format");
    }
    return filterFor(target.first());
  }

  /** {@code json} with the target's files after "file": {@code fileCount} and {@code files}. */
  private static Map<String, Object> withFiles(Map<String, Object> json, Target target) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : json.entrySet()) {
      out.put(entry.getKey(), entry.getValue());
      if (entry.getKey().equals("file")) {
        List<String> names = new ArrayList<>();
        for (DataFiles.Checked file : target.files()) {
          names.add(file.name());
        }
        out.put("fileCount", names.size());
        out.put("files", names);
      }
    }
    return out;
  }
}
