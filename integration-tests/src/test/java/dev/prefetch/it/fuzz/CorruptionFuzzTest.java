package dev.prefetch.it.fuzz;

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
import dev.prefetch.it.fuzz.FuzzCases.Outcome;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.testing.Checksum;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupts small valid Parquet and ORC files (every type, nested and flat, several codecs and page
 * versions, and a few ORC files of other writers: {@link FuzzCases#OTHER_ORC_WRITERS}) in a few
 * thousand seeded ways, bit flips, random and zeroed bytes, spliced, deleted and inserted bytes,
 * truncations, aimed at footers, page headers, dictionary and data pages, page indexes, stripe
 * footers and row indexes, and reads each result.
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

  @TempDir Path dir;

  /** A valid file the cases start from. */
  private record Seed(
      String name, Path file, byte[] bytes, Layout layout, boolean checksums, String checksum) {}

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyCorruptedFileEndsInDataOrAClearErrorWithoutLeaks() throws Exception {
    int cases = Integer.getInteger("fuzz.cases", 2000);
    long seed = Long.getLong("fuzz.seed", 20261130L);
    List<Seed> seeds = writeSeeds();
    Random random = new Random(seed);
    ReadContext context =
        ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
    FuzzCases run = new FuzzCases();
    try (run) {
      for (int i = 0; i < cases; i++) {
        Seed base = seeds.get(i % seeds.size());
        Mutation mutation = new Mutation.Generator(base.layout()).next(random);
        ReadOptions options = options(random, base);
        Path file = dir.resolve("case-" + i + "-" + base.file().getFileName());
        Files.write(file, mutation.apply(base.bytes()));
        run.run(
            i,
            file,
            base.name() + " " + mutation + " " + options,
            base.name() + " " + mutation.kind(),
            () -> readAll(file, options, context),
            checksum ->
                checksum.equals(base.checksum()) ? Outcome.DATA_SAME : Outcome.DATA_DIFFERENT,
            thrown -> FuzzCases.classify(thrown, file));
      }
    }
    run.reportAndAssertNoBugs("Corruption fuzz", cases, seeds.size(), seed);
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
    for (OrcWriterFile file : FuzzCases.otherOrcWriters(dir.resolve("orc-writers"))) {
      seeds.add(seed(FuzzCases.seedName(file), file.path(), Layout.orc(file.path()), false, local));
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
}
