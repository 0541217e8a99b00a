package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.testing.FaultInjectingFileSystem;
import dev.prefetch.testing.ReaderThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Storage failures and corrupt data: clear errors naming the file, no hang, no leak. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcFaultsTest {

  private static final int ROWS = 10_000;

  @TempDir static Path dir;

  private static Path file;
  private static List<StripeInformation> stripes;

  @BeforeAll
  static void writeFile() throws IOException {
    file =
        OrcTestFiles.write(
            dir.resolve("faulty.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.WITH_ID, ROWS).stripeRows(2000));
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.readerOptions(new Configuration()))) {
      stripes = reader.getStripes();
    }
  }

  @BeforeEach
  @AfterEach
  void reset() {
    FaultInjectingFileSystem.reset();
  }

  private static ReadContext context() {
    return ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
  }

  /** A reader of the file through the fault-injecting filesystem. */
  private static BatchReader openFaulty(ReadContext context, int parallelism) throws IOException {
    return Readers.open(
        DataFile.of(FaultInjectingFileSystem.path(file)), options(parallelism), context);
  }

  private static ReadOptions options(int parallelism) {
    return ReadOptions.builder()
        .minReadBytes(0)
        .property(OrcOptions.NATURAL_READ_SIZE, "1")
        .parallelism(parallelism)
        .batchSize(250)
        .build();
  }

  @Test
  void readFailureInAStripeSurfacesNamingTheFileAndRangeAndLeaksNothing() throws IOException {
    StripeInformation third = stripes.get(2);
    FaultInjectingFileSystem.faults(file)
        .failReadsTouching(third.getOffset(), third.getOffset() + third.getLength());
    for (int parallelism : new int[] {1, 4}) {
      try (ReadContext context = context();
          BatchReader reader = openFaulty(context, parallelism)) {
        assertThatThrownBy(() -> Rows.ours(reader))
            .isInstanceOf(ReadException.class)
            .hasMessageContaining("faulty.orc")
            .hasMessageContaining("stripe 2");
      }
      assertThat(ReaderThreads.live()).isEmpty();
      FaultInjectingFileSystem.assertAllStreamsClosed();
    }
  }

  /** Holds for every row, so stripes are read by row groups and their reads kept per stripe. */
  private static final SearchArgument EVERY_ROW =
      SearchArgumentFactory.newBuilder()
          .startNot()
          .lessThan("id", PredicateLeaf.Type.LONG, -1L)
          .end()
          .build();

  @Test
  void aFailedReadOfAStripeItsProducersShareUnderAPredicateNamesTheFileAndLeaksNothing()
      throws IOException {
    StripeInformation third = stripes.get(2);
    FaultInjectingFileSystem.faults(file)
        .failReadsTouching(
            third.getOffset() + third.getIndexLength(),
            third.getOffset() + 1 + third.getIndexLength());
    for (int parallelism : new int[] {1, 4}) {
      ReadOptions options =
          ReadOptions.builder()
              .minReadBytes(0)
              .property(OrcOptions.NATURAL_READ_SIZE, "1")
              .parallelism(parallelism)
              .filter(EVERY_ROW)
              .build();
      try (ReadContext context = context();
          BatchReader reader =
              Readers.open(DataFile.of(FaultInjectingFileSystem.path(file)), options, context)) {
        assertThatThrownBy(() -> Rows.ours(reader))
            .isInstanceOf(ReadException.class)
            .hasMessageContaining("faulty.orc")
            .hasMessageContaining("stripe 2");
      }
      assertThat(ReaderThreads.live()).isEmpty();
      FaultInjectingFileSystem.assertAllStreamsClosed();
    }
  }

  @Test
  void closeReturnsPromptlyWhileProducersWaitForAStripeWhoseReadHangs() throws Exception {
    StripeInformation second = stripes.get(1);
    long data = second.getOffset() + second.getIndexLength();
    FaultInjectingFileSystem.Faults faults =
        FaultInjectingFileSystem.faults(file).hangReadsTouching(data, data + 1);
    ReadOptions options =
        ReadOptions.builder()
            .minReadBytes(0)
            .property(OrcOptions.NATURAL_READ_SIZE, "1")
            .parallelism(4)
            .queueCapacity(1)
            .batchSize(250)
            .filter(EVERY_ROW)
            .build();
    try (ReadContext context = context()) {
      BatchReader reader =
          Readers.open(DataFile.of(FaultInjectingFileSystem.path(file)), options, context);
      for (int i = 0; i < 8; i++) {
        assertThat(reader.next()).isNotNull(); // stripe 0; producers run ahead into stripe 1
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (faults.hungReads() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(faults.hungReads()).isPositive();
      long start = System.nanoTime();
      reader.close();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1500);
    } finally {
      faults.release();
    }
    assertThat(ReaderThreads.live()).isEmpty();
    FaultInjectingFileSystem.assertAllStreamsClosed();
  }

  @Test
  void everyStreamOpenedIsClosedAfterAReadAtAnyParallelism() throws IOException {
    for (int parallelism : new int[] {1, 2, 8}) {
      try (ReadContext context = context();
          BatchReader reader = openFaulty(context, parallelism)) {
        assertThat(Rows.ours(reader)).hasSize(ROWS);
      }
      FaultInjectingFileSystem.assertAllStreamsClosed();
    }
  }

  @Test
  void corruptStripeDataFailsNamingTheFileOrReadsWithoutHanging() throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    StripeInformation second = stripes.get(1);
    int from = Math.toIntExact(second.getOffset() + second.getIndexLength() + 16);
    for (int i = from; i < from + 400 && i < bytes.length; i++) {
      bytes[i] = (byte) (bytes[i] * 31 + 7);
    }
    Path corrupt = dir.resolve("corrupt-data.orc");
    Files.write(corrupt, bytes);
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(corrupt, options(4), context)) {
      assertThatThrownBy(() -> Rows.ours(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("corrupt-data.orc")
          .hasMessageContaining("stripe 1");
    }
    assertThat(ReaderThreads.live()).isEmpty();
  }
}
