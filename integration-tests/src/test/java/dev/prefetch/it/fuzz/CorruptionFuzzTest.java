package dev.prefetch.it.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.it.Layout;
import dev.prefetch.it.TestFiles;
import dev.prefetch.it.TestFiles.OrcVariant;
import dev.prefetch.it.TestFiles.ParquetVariant;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupts small valid Parquet and ORC files (every type, nested and flat, several codecs and page
 * versions) in a few thousand seeded ways, bit flips, random and zeroed bytes, spliced, deleted and
 * inserted bytes, truncations, aimed at footers, page headers, dictionary and data pages, page
 * indexes, stripe footers and row indexes, and reads each result.
 *
 * <p>Every case must end, within its time bound, in a batch sequence or a clear exception: a {@link
 * CorruptFileException} or {@link ReadException} (or another {@link IOException}) naming the file,
 * never a hang, an {@link OutOfMemoryError} (this class runs in a forked JVM with a small heap and
 * {@code -XX:+ExitOnOutOfMemoryError}, so an allocation sized by a corrupt length ends the run),
 * another exception type, or a read exception wrapping a decoder's unchecked exception; and leave
 * no producer thread or open stream. Cases and outcomes are counted and printed. orc-core's integer
 * run decoder, which would spin without end on a run longer than its stream, reads streams that
 * format-orc ends with a {@link CorruptFileException} too; so any case without a result in its time
 * bound is a bug. {@code -Dfuzz.cases=N} and {@code -Dfuzz.seed=S} change the run; a failing case
 * is saved under {@code target/fuzz-failures} with its mutation.
 */
class CorruptionFuzzTest {

  private static final int ROWS = 1_000;
  static final long CASE_TIMEOUT_SECONDS = 10;

  @TempDir Path dir;

  /** A valid file the cases start from. */
  private record Seed(
      String name, Path file, byte[] bytes, Layout layout, boolean checksums, String checksum) {}

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

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyCorruptedFileEndsInDataOrAClearErrorWithoutLeaks() throws Exception {
    int cases = Integer.getInteger("fuzz.cases", 2000);
    long seed = Long.getLong("fuzz.seed", 20261130L);
    List<Seed> seeds = writeSeeds();
    Map<String, Integer> counts = new TreeMap<>();
    Map<Outcome, Integer> totals = new TreeMap<>();
    List<String> bugs = new ArrayList<>();
    Random random = new Random(seed);
    ReadContext context =
        ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
    Thread[] workerThread = new Thread[1];
    ExecutorService worker = newWorker(workerThread);
    long start = System.nanoTime();
    try {
      for (int i = 0; i < cases; i++) {
        Seed base = seeds.get(i % seeds.size());
        Mutation mutation = new Mutation.Generator(base.layout()).next(random);
        ReadOptions options = options(random, base);
        Path file = dir.resolve("case-" + i + "-" + base.file().getFileName());
        Files.write(file, mutation.apply(base.bytes()));
        FaultInjectingFileSystem.reset();
        Future<String> read = worker.submit(() -> readAll(file, options, context));
        String problem = null;
        Outcome outcome;
        try {
          String checksum = read.get(CASE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
          outcome = checksum.equals(base.checksum()) ? Outcome.DATA_SAME : Outcome.DATA_DIFFERENT;
        } catch (TimeoutException e) {
          outcome = Outcome.BUG;
          problem =
              "no result within "
                  + CASE_TIMEOUT_SECONDS
                  + " s (a hang) at\n"
                  + stackOf(workerThread[0].getStackTrace())
                  + producerStacks();
          // The hung read keeps its thread; later cases get a new one.
          read.cancel(true);
          worker.shutdownNow();
          worker = newWorker(workerThread);
        } catch (ExecutionException e) {
          Throwable thrown = e.getCause();
          outcome = classify(thrown, file);
          if (outcome == Outcome.BUG) {
            problem = stackTrace(thrown);
          }
        }
        if (problem == null) {
          problem = leaks();
        }
        if (problem != null) {
          outcome = Outcome.BUG;
          Path kept =
              Files.createDirectories(Path.of("target", "fuzz-failures"))
                  .resolve(file.getFileName());
          Files.copy(file, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          bugs.add(
              "case "
                  + i
                  + " "
                  + base.name()
                  + " "
                  + mutation
                  + " "
                  + options
                  + " (saved as "
                  + kept
                  + "): "
                  + problem);
        }
        Files.delete(file);
        counts.merge(base.name() + " " + mutation.kind() + " " + outcome, 1, Integer::sum);
        totals.merge(outcome, 1, Integer::sum);
      }
    } finally {
      worker.shutdownNow();
      FaultInjectingFileSystem.reset();
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println(
        "Corruption fuzz: "
            + cases
            + " cases over "
            + seeds.size()
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

  static ExecutorService newWorker(Thread[] holder) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread thread = new Thread(r, "fuzz-worker");
          thread.setDaemon(true);
          holder[0] = thread;
          return thread;
        });
  }

  /** Where each live producer thread is, for a case that hung while prefetching. */
  static String producerStacks() {
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

  static String stackOf(StackTraceElement[] stack) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(stack.length, 30); i++) {
      text.append("\tat ").append(stack[i]).append('\n');
    }
    return text.toString();
  }

  private List<Seed> writeSeeds() throws IOException {
    List<Seed> seeds = new ArrayList<>();
    ReadContext local = ReadContext.defaults();
    for (ParquetVariant variant : ParquetVariant.values()) {
      Path file =
          TestFiles.parquet(
              dir.resolve(variant.name().toLowerCase() + ".parquet"), variant, ROWS, true);
      seeds.add(seed(variant.name(), file, Layout.parquet(file), true, local));
    }
    for (OrcVariant variant : OrcVariant.values()) {
      Path file = TestFiles.orc(dir.resolve(variant.name().toLowerCase() + ".orc"), variant, ROWS);
      seeds.add(seed("ORC_" + variant.name(), file, Layout.orc(file), false, local));
    }
    return seeds;
  }

  private static Seed seed(
      String name, Path file, Layout layout, boolean checksums, ReadContext context)
      throws IOException {
    String checksum =
        readChecksum(
            new org.apache.hadoop.fs.Path(file.toUri()),
            ReadOptions.builder().prefetchEnabled(false).build(),
            context);
    return new Seed(name, file, Files.readAllBytes(file), layout, checksums, checksum);
  }

  private static ReadOptions options(Random random, Seed base) {
    ReadOptions.Builder options =
        ReadOptions.builder()
            .batchSize(random.nextBoolean() ? 1024 : 333)
            .verifyChecksums(base.checksums() && random.nextBoolean());
    if (random.nextInt(4) == 0) {
      options
          .prefetchEnabled(true)
          .parallelism(1 + random.nextInt(4))
          .minReadBytes(0)
          .property(OrcOptions.NATURAL_READ_SIZE, "16k");
    } else {
      options.prefetchEnabled(false);
    }
    return options.build();
  }

  private static String readAll(Path file, ReadOptions options, ReadContext context)
      throws IOException {
    return readChecksum(FaultInjectingFileSystem.path(file), options, context);
  }

  private static String readChecksum(
      org.apache.hadoop.fs.Path path, ReadOptions options, ReadContext context) throws IOException {
    try (BatchReader reader = Readers.open(DataFile.of(path), options, context)) {
      Checksum checksum = new Checksum(reader.schema().fields().size());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checksum.add(batch);
      }
      return checksum.value();
    }
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

  static String leaks() {
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

  static String stackTrace(Throwable thrown) {
    if (thrown == null) {
      return "";
    }
    StringWriter out = new StringWriter();
    thrown.printStackTrace(new PrintWriter(out));
    String text = out.toString();
    return text.length() > 6000 ? text.substring(0, 6000) + "..." : text;
  }
}
