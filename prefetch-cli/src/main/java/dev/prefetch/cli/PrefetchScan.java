package dev.prefetch.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code prefetch-scan}: scan, compare, verify, demo and gen.
 *
 * <p>Exit codes: 0 success, 1 a verify or compare mismatch, 2 a usage error (bad option or value),
 * 3 a read error (the message names the file). Every error is one line on stderr; with {@code
 * --verbose} its stack trace follows.
 */
@Command(
    name = "prefetch-scan",
    mixinStandardHelpOptions = true,
    version = "prefetch-scan 0.1.0",
    description = "Scan Parquet and ORC files with the prefetching reader.",
    subcommands = {
      DemoCommand.class,
      ScanCommand.class,
      CompareCommand.class,
      VerifyCommand.class,
      GenCommand.class,
      ExportCommand.class,
      SchemaCommand.class,
      MetaCommand.class,
      HeadCommand.class,
      CatCommand.class,
      CountCommand.class
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
      "0:success",
      "1:verify or compare mismatch",
      "2:usage error",
      "3:read error (the message names the file)"
    })
public final class PrefetchScan implements Runnable {

  @picocli.CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "a command is required: demo, scan, compare, verify, gen, export, schema, meta, head, cat"
            + " or count");
  }

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs the command line in this process with the given streams; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean verbose = Arrays.asList(args).contains("--verbose");
    PrintWriter errWriter = new PrintWriter(err, true);
    CommandLine cmd = new CommandLine(new PrefetchScan());
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(errWriter);
    cmd.setParameterExceptionHandler(
        (ex, arguments) -> {
          String help = ex.getCommandLine().getCommandName();
          CommandLine parent = ex.getCommandLine().getParent();
          if (parent != null) {
            help = parent.getCommandName() + " " + help;
          }
          errWriter.println("prefetch-scan: " + ex.getMessage() + " (see '" + help + " --help')");
          if (verbose) {
            ex.printStackTrace(errWriter);
          }
          return CliException.USAGE;
        });
    cmd.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          int code;
          String message;
          if (ex instanceof CliException cli) {
            code = cli.exitCode();
            message = cli.getMessage();
          } else if (ex instanceof IllegalArgumentException) {
            code = CliException.USAGE;
            message = ex.getMessage();
          } else if (ex instanceof UncheckedIOException u) {
            code = CliException.READ_ERROR;
            message = u.getCause().getMessage();
          } else {
            code = CliException.READ_ERROR;
            message = ex.getClass().getSimpleName() + ": " + ex.getMessage();
          }
          errWriter.println("prefetch-scan: " + oneLine(message));
          if (verbose) {
            ex.printStackTrace(errWriter);
          }
          return code;
        });
    int code = cmd.execute(args);
    cmd.getOut().flush();
    errWriter.flush();
    return code;
  }

  private static String oneLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
