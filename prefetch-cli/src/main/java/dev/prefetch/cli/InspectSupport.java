package dev.prefetch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.cli.inspect.TreeText;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * The loop, checks and output shared by the inspection commands (schema, meta, count), and the
 * failure mapping of every command that works on files one by one.
 */
final class InspectSupport {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private InspectSupport() {}

  /** The file behind a command-line name, checked (exists, Parquet or ORC). */
  static DataFiles.Checked check(FileCommand command, String file) {
    return DataFiles.check(file, command.args.readPath(file), command.conf);
  }

  /** Rejects the read options that an inspection command would silently ignore. */
  static void rejectRowOptions(FileCommand command, String name) {
    if (command.args.filter != null || command.args.rows != null) {
      throw new CliException(
          CliException.USAGE, name + " reads metadata only: --filter and " + "--rows do not apply");
    }
  }

  /** Prints {@code node} as one JSON line, or as text. */
  static void print(PrintWriter out, ObjectNode node, boolean json) {
    if (json) {
      try {
        out.println(MAPPER.writeValueAsString(node));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      TreeText.print(out, node);
    }
    out.flush();
  }

  /**
   * Runs a command's work on one file, turning its failures into the CLI's errors: a {@link
   * CliException} as it is, a rejected argument as a usage error, any other failure as a read error
   * naming the file.
   */
  static <T> T inspect(DataFiles.Checked file, Inspection<T> inspection) {
    return failuresNamed(e -> file.name(), inspection);
  }

  /**
   * As {@link #inspect}, with the read error named after the file {@code fileOf} finds for the
   * failure (a stream of files names the one that failed).
   */
  static <T> T failuresNamed(Function<Throwable, String> fileOf, Inspection<T> inspection) {
    try {
      return inspection.run();
    } catch (CliException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw FileCommand.readError(fileOf.apply(e), e);
    }
  }

  /**
   * The loop of an inspection command: sets the command up, rejects the row options, then checks
   * each of its files in order, inspects it and hands the result to {@code sink}.
   */
  static <T> void eachFile(
      FileCommand command, String name, FileInspection<T> inspection, Sink<T> sink) {
    command.setUp();
    rejectRowOptions(command, name);
    for (String fileName : command.files) {
      DataFiles.Checked file = check(command, fileName);
      sink.accept(file, inspect(file, () -> inspection.run(file)));
    }
  }

  /** A look at one checked file's metadata. */
  @FunctionalInterface
  interface FileInspection<T> {
    T run(DataFiles.Checked file) throws IOException;
  }

  /** What a command does with the inspection of one file. */
  @FunctionalInterface
  interface Sink<T> {
    void accept(DataFiles.Checked file, T result);
  }

  /** Work on one file: a look at its metadata, or a read of its rows. */
  @FunctionalInterface
  interface Inspection<T> {
    T run() throws IOException;
  }
}
