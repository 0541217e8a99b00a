package dev.prefetch.cli;

import picocli.CommandLine.Command;

/** {@code cat}: every selected row of each file. */
@Command(
    name = "cat",
    mixinStandardHelpOptions = true,
    description =
        "Every selected row of each file, as a text table or (--json) one JSON "
            + "object per row.")
final class CatCommand extends RowsCommand {

  @Override
  long limit() {
    return -1;
  }

  @Override
  boolean prefetch() {
    return true;
  }
}
