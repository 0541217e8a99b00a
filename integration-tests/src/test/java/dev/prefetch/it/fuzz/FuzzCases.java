package dev.prefetch.it.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadException;
import dev.prefetch.orc.testing.OrcWriterCorpus;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Runs the cases of a fuzz test one at a time on a worker thread, each within {@value
 * #CASE_TIMEOUT_SECONDS} seconds, and judges how each ended: in data, in a clear exception naming
 * the file (see {@link #classify}), or in a bug (a hang, a leaked producer thread or stream, an
 * unclear exception). A bug's file is kept under {@code target/fuzz-failures}. Outcomes are counted
 * and printed, and {@link #reportAndAssertNoBugs} fails the test on any bug; {@link #close()} ends
 * the worker.
 *
 * <p>Used by the test thread only; the worker only runs the case's read.
 */
final class FuzzCases implements AutoCloseable {

  static final long CASE_TIMEOUT_SECONDS = 10;

  /**
   * The files of other ORC writers ({@link OrcWriterCorpus}) that the fuzzers corrupt too: the C++
   * writer's content length and stripes from offset 3 (one stripe of many types, three small
   * compressed stripes), Trino's writer and the first ORC format (no postscript magic, no stripe
   * statistics, run-length encoding version 1). A few small ones, so that the runs keep their
   * length.
   */
  static final List<String> OTHER_ORC_WRITERS =
      List.of(
          "cpp/cpp-single-stripe.orc",
          "cpp/cpp-stripes-zstd.orc",
          "trino/trino-types-zlib.orc",
          "legacy/orc-first-format.orc");

  /** The {@link #OTHER_ORC_WRITERS} files, written into {@code dir}. */
  static List<OrcWriterFile> otherOrcWriters(Path dir) throws IOException {
    List<OrcWriterFile> chosen = new ArrayList<>();
    for (OrcWriterFile file : OrcWriterCorpus.write(dir)) {
      if (OTHER_ORC_WRITERS.contains(file.name())) {
        chosen.add(file);
      }
    }
    return chosen;
  }

  /** A seed's name for {@code file}: its file name without the extension. */
  static String seedName(OrcWriterFile file) {
    return "ORC_" + file.path().getFileName().toString().replace(".orc", "");
  }

  /** What one case ended in. */
  enum Outcome {
    DATA_SAME,
    DATA_DIFFERENT,
    CORRUPT_FILE,
    READ_EXCEPTION,
    OTHER_IO_EXCEPTION,
    ILLEGAL_ARGUMENT,
    BUG
  }

  private final Map<String, Integer> counts = new TreeMap<>();
  private final Map<Outcome, Integer> totals = new TreeMap<>();
  private final List<String> bugs = new ArrayList<>();
  private final long start = System.nanoTime();

  /** The worker's thread, set by its thread factory: a hung case's stack is printed from it. */
  private final Thread[] workerThread = new Thread[1];

  private ExecutorService worker = newWorker();

  /**
   * Runs one case: {@code read} on the worker, then the leak checks; deletes {@code file} after.
   *
   * @param index the case's number, for the bug list
   * @param file the case's corrupted file, kept when the case is a bug
   * @param told what the case did (mutation, options), for the bug list
   * @param group what the case is counted under with its outcome
   * @param read the case's read, returning what it read
   * @param ofData the outcome of a read that returned
   * @param ofError the outcome of a read that threw (see {@link #classify})
   */
  void run(
      int index,
      Path file,
      String told,
      String group,
      Callable<String> read,
      Function<String, Outcome> ofData,
      Function<Throwable, Outcome> ofError)
      throws IOException, InterruptedException {
    FaultInjectingFileSystem.reset();
    Future<String> result = worker.submit(read);
    String problem = null;
    Outcome outcome;
    try {
      outcome = ofData.apply(result.get(CASE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    } catch (TimeoutException e) {
      outcome = Outcome.BUG;
      problem =
          "no result within "
              + CASE_TIMEOUT_SECONDS
              + " s (a hang) at\n"
              + stackOf(workerThread[0].getStackTrace())
              + producerStacks();
      // The hung read keeps its thread; later cases get a new one.
      result.cancel(true);
      worker.shutdownNow();
      worker = newWorker();
    } catch (ExecutionException e) {
      outcome = ofError.apply(e.getCause());
      if (outcome == Outcome.BUG) {
        problem = stackTrace(e.getCause());
      }
    }
    if (problem == null) {
      problem = leaks();
    }
    if (problem != null) {
      outcome = Outcome.BUG;
      Path kept =
          Files.createDirectories(Path.of("target", "fuzz-failures")).resolve(file.getFileName());
      Files.copy(file, kept, StandardCopyOption.REPLACE_EXISTING);
      bugs.add("case " + index + " " + told + " (saved as " + kept + "): " + problem);
    }
    Files.delete(file);
    counts.merge(group + " " + outcome, 1, Integer::sum);
    totals.merge(outcome, 1, Integer::sum);
  }

  /**
   * Prints what the run of {@code cases} cases over {@code files} seed files found, then fails on
   * any bug.
   */
  void reportAndAssertNoBugs(String title, int cases, int files, long seed) {
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println(
        title
            + ": "
            + cases
            + " cases over "
            + files
            + " files in "
            + millis
            + " ms, seed "
            + seed
            + ", max heap "
            + (Runtime.getRuntime().maxMemory() >> 20)
            + " MiB");
    System.out.println("Outcomes: " + totals);
    counts.forEach((key, count) -> System.out.println("  " + key + ": " + count));
    bugs.forEach(bug -> System.out.println("BUG " + bug));
    assertThat(bugs).as("cases that hung, leaked or ended in an unclear exception").isEmpty();
  }

  @Override
  public void close() {
    worker.shutdownNow();
    FaultInjectingFileSystem.reset();
  }

  private ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread thread = new Thread(r, "fuzz-worker");
          thread.setDaemon(true);
          workerThread[0] = thread;
          return thread;
        });
  }

  /** Where each live producer thread is, for a case that hung while prefetching. */
  private static String producerStacks() {
    StringBuilder text = new StringBuilder();
    Thread.getAllStackTraces()
        .forEach(
            (thread, stack) -> {
              if (thread.getName().startsWith(ReaderThreads.PREFIX)) {
                text.append(thread.getName()).append(":\n").append(stackOf(stack));
              }
            });
    return text.toString();
  }

  private static String stackOf(StackTraceElement[] stack) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(stack.length, 30); i++) {
      text.append("\tat ").append(stack[i]).append('\n');
    }
    return text.toString();
  }

  /** An outcome for an exception; BUG when it is not a clear one. */
  static Outcome classify(Throwable thrown, Path file) {
    String name = file.getFileName().toString();
    if (thrown instanceof IllegalArgumentException) {
      return thrown.getMessage() != null && thrown.getMessage().contains(name)
          ? Outcome.ILLEGAL_ARGUMENT
          : Outcome.BUG;
    }
    if (!(thrown instanceof IOException) || thrown instanceof InterruptedIOException) {
      return Outcome.BUG;
    }
    if (thrown.getMessage() == null || !thrown.getMessage().contains(name)) {
      return Outcome.BUG;
    }
    // Below the runtime's ReadException lies what the format threw: an unchecked exception there
    // is a decoder failure the format let through, which must become a CorruptFileException (or
    // an IOException) naming the file. An Error anywhere in the chain is a bug: the formats check
    // every size before they allocate, so not even an OutOfMemoryError may appear (and this JVM
    // runs with -XX:+ExitOnOutOfMemoryError, so one would end the run).
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof Error) {
        return Outcome.BUG;
      }
    }
    // CorruptFileException is a ReadException too: the unwrapping stops at the first one, the
    // format's verdict on the file, whatever decoder failure it carries as its cause.
    Throwable cause = thrown;
    while (!(cause instanceof CorruptFileException)
        && cause instanceof ReadException
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof CorruptFileException) {
      return Outcome.CORRUPT_FILE;
    }
    if (cause instanceof RuntimeException) {
      return Outcome.BUG;
    }
    return thrown instanceof ReadException ? Outcome.READ_EXCEPTION : Outcome.OTHER_IO_EXCEPTION;
  }

  private static String leaks() {
    List<String> threads = ReaderThreads.live();
    if (!threads.isEmpty()) {
      return "producer threads alive after close: " + threads;
    }
    if (FaultInjectingFileSystem.totalOpens() != FaultInjectingFileSystem.totalCloses()) {
      try {
        FaultInjectingFileSystem.assertAllStreamsClosed();
      } catch (AssertionError e) {
        return e.getMessage() + "\n" + stackTrace(e.getCause());
      }
    }
    return null;
  }

  private static String stackTrace(Throwable thrown) {
    if (thrown == null) {
      return "";
    }
    StringWriter out = new StringWriter();
    thrown.printStackTrace(new PrintWriter(out));
    String text = out.toString();
    return text.length() > 6000 ? text.substring(0, 6000) + "..." : text;
  }
}
