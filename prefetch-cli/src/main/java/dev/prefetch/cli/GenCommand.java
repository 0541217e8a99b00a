package dev.prefetch.cli;

import dev.prefetch.cli.internal.ByteSize;
import dev.prefetch.cli.internal.Format;
import dev.prefetch.cli.internal.Json;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gen}: deterministic test data with the format library's own writer. */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    description = {
      "Write deterministic test data (the same seed and options give the same values).",
      "Kinds: scan (12 mixed columns), wide (--columns int64 columns x --row-groups), nested "
          + "(lists, maps, structs)."
    })
final class GenCommand implements Callable<Integer> {

  @Option(names = "--format", required = true, paramLabel = "parquet|orc")
  String format;

  @Option(names = "--kind", defaultValue = "scan", paramLabel = "scan|wide|nested")
  String kind;

  @Option(names = "--rows", defaultValue = "4000000", paramLabel = "N")
  long rows;

  @Option(
      names = "--columns",
      defaultValue = "100",
      paramLabel = "N",
      description = "Columns of a wide table.")
  int columns;

  @Option(
      names = "--row-groups",
      defaultValue = "0",
      paramLabel = "M",
      description = "Cut the rows into M row groups / stripes of equal row counts (0: by size).")
  int rowGroups;

  @Option(
      names = "--row-group-size",
      defaultValue = "128m",
      paramLabel = "BYTES",
      description = "Parquet row group / ORC stripe size when not cutting by count (e.g. 64m).")
  String rowGroupBytes;

  @Option(
      names = "--page-size",
      defaultValue = "1m",
      paramLabel = "BYTES",
      description = "Parquet page size (ORC: compression buffer size), e.g. 64k.")
  String pageBytes;

  @Option(names = "--codec", defaultValue = "snappy", paramLabel = "none|snappy|zstd|gzip|lz4")
  String codec;

  @Option(
      names = "--dictionary",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Dictionary encoding (default on).")
  boolean dictionary;

  @Option(
      names = "--statistics",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Parquet column statistics (default on).")
  boolean statistics;

  @Option(
      names = "--page-index",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "Parquet page indexes (default on; off also turns statistics off).")
  boolean pageIndex;

  @Option(names = "--seed", defaultValue = "" + GenSpec.DEFAULT_SEED, paramLabel = "N")
  long seed;

  @Option(names = "--json", description = "Print the result as one JSON object.")
  boolean json;

  @Option(names = "--verbose", description = "Print stack traces of errors.")
  boolean verbose;

  @Parameters(index = "0", paramLabel = "OUT", description = "The file to write (replaced).")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GenSpec genSpec;
    try {
      genSpec =
          new GenSpec(
              format,
              GenSpec.Kind.parse(kind),
              rows,
              columns,
              rowGroups,
              ByteSize.parse("--row-group-size", rowGroupBytes),
              Math.toIntExact(ByteSize.parse("--page-size", pageBytes)),
              codec,
              dictionary,
              statistics,
              pageIndex,
              seed);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new CliException(CliException.USAGE, e.getMessage());
    }
    if (Files.isDirectory(out)) {
      throw new CliException(CliException.USAGE, out + ": is a directory");
    }
    long start = System.nanoTime();
    try {
      Generator.write(genSpec, out);
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, e.getMessage());
    } catch (IOException e) {
      throw new CliException(CliException.READ_ERROR, out + ": cannot write: " + e.getMessage(), e);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long bytes;
    try {
      bytes = Files.size(out);
    } catch (IOException e) {
      throw new CliException(CliException.READ_ERROR, out + ": " + e.getMessage(), e);
    }
    if (json) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("file", out.toString());
      result.put("format", genSpec.format());
      result.put("kind", kind);
      result.put("rows", rows);
      result.put("bytes", bytes);
      result.put("seconds", seconds);
      result.put("spec", genSpec.fingerprint());
      spec.commandLine().getOut().println(Json.write(result));
    } else {
      spec.commandLine()
          .getOut()
          .printf(
              Locale.ROOT,
              "wrote %s: %s %s table, %,d rows, %s in %s s%n",
              out,
              genSpec.format(),
              kind,
              rows,
              Format.bytes(bytes),
              Format.seconds(seconds));
    }
    return 0;
  }
}
