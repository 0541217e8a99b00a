package dev.prefetch.internal.runtime;

import static dev.prefetch.internal.runtime.SyntheticFormat.ranges;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One exception contract on every path: what open(), next() and close() raise is a {@link
 * ReadException} naming the file (a {@link CorruptFileException} for a corrupt file), an interrupt,
 * or caller misuse; whatever a format or filesystem threw is its cause. And a failing range ends
 * the prefetching read exactly where it ends the single-threaded one.
 */
@Timeout(60)
@ExtendWith(NothingLeaks.class)
class ExceptionContractTest {

  @RegisterExtension static final EnginePool POOL = new EnginePool("engine-contract");

  /** The single path, the reader's own threads, an executor. */
  static Stream<Arguments> paths() {
    return Stream.of(Arguments.of("single"), Arguments.of("threads"), Arguments.of("executor"));
  }

  private static BatchReader open(String path, DataFile file) throws IOException {
    return open(path, List.of(file));
  }

  private static BatchReader open(String path, List<DataFile> files) throws IOException {
    ReadOptions options =
        path.equals("single") ? Scans.single(10) : Scans.prefetching(4, 8, 10).build();
    ReadContext context = POOL.context(path.equals("executor"));
    return Readers.open(files, options, context);
  }

  /** Drains {@code reader} into {@code seen}, slowly at first, and returns what ended it. */
  private static Throwable drainSlowly(BatchReader reader, List<Scans.Seen> seen) {
    return catchThrowable(
        () -> {
          for (RecordBatch batch; (batch = reader.next()) != null; ) {
            seen.add(Scans.drainOne(batch));
            if (seen.size() < 4) {
              Thread.sleep(30); // the producer of the failing range fails meanwhile
            }
          }
        });
  }

  /** Hadoop's FSError (its constructor is package-private), as LocalFileSystem throws it. */
  private static FSError fsError(String message) {
    try {
      Constructor<FSError> constructor = FSError.class.getDeclaredConstructor(Throwable.class);
      constructor.setAccessible(true);
      return constructor.newInstance(new IOException(message));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theBatchesBeforeAFailingRangeAreReturnedOnEveryPathAlike() throws Exception {
    DataFile file =
        SyntheticFormat.register(
            "fails-late", SyntheticFormat.Spec.of(ranges(12, 40)).failingAt(6, 2));
    List<Scans.Seen> single = new ArrayList<>();
    Throwable singleFailure;
    try (BatchReader reader = open("single", file)) {
      singleFailure = drainSlowly(reader, single);
    }
    assertThat(singleFailure).isInstanceOf(ReadException.class);
    assertThat(single).hasSize(6 * 4 + 2);
    for (String path : List.of("threads", "executor")) {
      List<Scans.Seen> seen = new ArrayList<>();
      Throwable failure;
      try (BatchReader reader = open(path, file)) {
        failure = drainSlowly(reader, seen);
      }
      assertThat(failure)
          .as(path)
          .isInstanceOf(ReadException.class)
          .hasMessage(singleFailure.getMessage());
      assertThat(((ReadException) failure).range().index()).isEqualTo(6);
      PrefetchOrderTest.assertSameBatches(seen, single, path);
    }
  }

  @Test
  void aLaterFileThatCannotBePlannedEndsTheReadAfterEveryBatchOfTheFilesBefore() throws Exception {
    DataFile good = SyntheticFormat.register("before-bad", SyntheticFormat.Spec.of(ranges(6, 30)));
    DataFile bad = SyntheticFormat.register("bad-plan", SyntheticFormat.Spec.of(ranges(3, 30)));
    SyntheticFormat.onPlan(
        "bad-plan",
        SyntheticFormat.throwing(() -> new CorruptFileException("bad-plan.synth: no footer")));
    for (String path : List.of("single", "threads", "executor")) {
      List<Scans.Seen> seen = new ArrayList<>();
      Throwable failure;
      try (BatchReader reader = open(path, List.of(good, bad))) {
        failure = drainSlowly(reader, seen);
      }
      assertThat(seen).as(path).hasSize(18);
      assertThat(failure).as(path).isInstanceOf(CorruptFileException.class);
      assertThat(((ReadException) failure).file()).isEqualTo(bad);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paths")
  void aCorruptFileExceptionOfAFormatIsCaughtAsOneAroundNext(String path) throws Exception {
    DataFile file =
        SyntheticFormat.register("corrupt-" + path, SyntheticFormat.Spec.of(ranges(8, 30)));
    AtomicInteger calls = new AtomicInteger();
    SyntheticFormat.onNext(
        "corrupt-" + path,
        () -> {
          if (calls.incrementAndGet() == 7) {
            throw new CorruptFileException(
                "corrupt-" + path + ".synth: a page header does not decode");
          }
        });
    try (BatchReader reader = open(path, file)) {
      try {
        while (reader.next() != null) {
          // read to the corrupt page
        }
        throw new AssertionError("the corrupt page was not reported");
      } catch (CorruptFileException e) {
        assertThat(e).isInstanceOf(ReadException.class);
        assertThat(e.file()).isEqualTo(file);
        assertThat(e.range()).isNotNull();
        assertThat(e)
            .hasMessageContaining("corrupt-" + path + ".synth")
            .hasMessageContaining("a page header does not decode");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("paths")
  void hadoopFsErrorAndUncheckedIoExceptionsFromNextAreReadExceptions(String path)
      throws Exception {
    for (String kind : List.of("fserror", "unchecked", "unchecked-corrupt")) {
      String name = kind + "-" + path;
      DataFile file = SyntheticFormat.register(name, SyntheticFormat.Spec.of(ranges(6, 30)));
      AtomicInteger calls = new AtomicInteger();
      SyntheticFormat.onNext(
          name,
          () -> {
            if (calls.incrementAndGet() == 5) {
              switch (kind) {
                case "fserror" -> throw SyntheticFormat.sneaky(fsError("disk error"));
                case "unchecked" -> throw new UncheckedIOException(new IOException("stream reset"));
                default -> throw new UncheckedIOException(new CorruptFileException(name + ": bad"));
              }
            }
          });
      Throwable thrown;
      try (BatchReader reader = open(path, file)) {
        thrown = catchThrowable(() -> Scans.drain(reader));
      }
      assertThat(thrown)
          .as(name)
          .isInstanceOf(
              kind.equals("unchecked-corrupt") ? CorruptFileException.class : ReadException.class);
      assertThat(((ReadException) thrown).file()).as(name).isEqualTo(file);
      assertThat(thrown).hasMessageContaining(name + ".synth");
    }
  }

  @Test
  void hadoopFsErrorAndUncheckedIoExceptionsFromOpenAreReadExceptions() throws Exception {
    for (String kind : List.of("fserror", "unchecked", "unchecked-corrupt")) {
      String name = "open-" + kind;
      DataFile file = SyntheticFormat.register(name, SyntheticFormat.Spec.of(ranges(6, 30)));
      SyntheticFormat.onPlan(
          name,
          () -> {
            switch (kind) {
              case "fserror" -> throw SyntheticFormat.sneaky(fsError("disk error"));
              case "unchecked" -> throw new UncheckedIOException(new IOException("stream reset"));
              default -> throw new UncheckedIOException(new CorruptFileException(name + ": bad"));
            }
          });
      Throwable thrown = catchThrowable(() -> open("threads", file).close());
      assertThat(thrown)
          .as(name)
          .isInstanceOf(
              kind.equals("unchecked-corrupt") ? CorruptFileException.class : ReadException.class);
      assertThat(((ReadException) thrown).file()).as(name).isEqualTo(file);
    }
  }

  @Test
  void aFormatsUncheckedExceptionFromCloseIsAReadExceptionNamingTheFile() throws Exception {
    DataFile file = SyntheticFormat.register("close-bug", SyntheticFormat.Spec.of(ranges(4, 30)));
    SyntheticFormat.onReaderClose(
        "close-bug", SyntheticFormat.throwing(() -> new IllegalStateException("double free")));
    BatchReader reader = open("single", file);
    assertThat(reader.next()).isNotNull();
    Throwable thrown = catchThrowable(reader::close);
    assertThat(thrown)
        .isInstanceOf(ReadException.class)
        .hasMessageContaining("close-bug.synth")
        .hasRootCauseMessage("double free");
  }
}
