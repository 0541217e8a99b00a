package dev.prefetch.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code head}: the first rows of each file. */
@Command(
    name = "head",
    mixinStandardHelpOptions = true,
    description =
        "The first N rows of each file, as a text table or (--json) one JSON object " + "per row.")
final class HeadCommand extends RowsCommand {

  @Option(
      names = {"-n", "--lines"},
      paramLabel = "N",
      defaultValue = "10",
      description = "Rows to print (default 10).")
  long lines;

  @Override
  long limit() {
    if (lines < 0) {
      throw new CliException(CliException.USAGE, "-n must not be negative: " + lines);
    }
    return lines;
  }

  @Override
  boolean prefetch() {
    return false;
  }
}
