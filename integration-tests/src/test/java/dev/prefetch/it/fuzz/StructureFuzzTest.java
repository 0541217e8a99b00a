package dev.prefetch.it.fuzz;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.it.TestFiles;
import dev.prefetch.it.TestFiles.OrcVariant;
import dev.prefetch.it.TestFiles.ParquetVariant;
import dev.prefetch.it.fuzz.FuzzCases.Outcome;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.testing.OrcSurgery;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.parquet.testing.ParquetSurgery;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Structure-aware corruption: each case decodes a small valid Parquet or ORC file's metadata
 * (Thrift page headers and footer; protobuf postscript, footer and stripe footers; ORC files of
 * other writers among them, {@link FuzzCases#OTHER_ORC_WRITERS}), sets one size or count to a value
 * chosen to break it ({@link StructureMutations}), writes the file back so that it still parses,
 * and reads it with options drawn at random: a projection, a filter on {@code id}, row ranges, a
 * split of the file, two files in one read, the metadata cache, the single reader or producers with
 * small queues and byte budgets.
 *
 * <p>Every case must end within {@value FuzzCases#CASE_TIMEOUT_SECONDS} seconds in data or a
 * documented exception naming the file ({@code CorruptFileException}, {@code ReadException},
 * another {@code IOException}, or {@code IllegalArgumentException} for options), and leave no
 * producer thread or open stream (see {@link FuzzCases#classify}). The run is in a forked JVM with
 * {@code -Xmx256m -XX:+ExitOnOutOfMemoryError}: an allocation sized by an unchecked field ends the
 * JVM, and the build with it. {@code -Dfuzz.structure.cases=N} and {@code -Dfuzz.seed=S} change the
 * run; a failing case is saved under {@code target/fuzz-failures}.
 */
class StructureFuzzTest {

  private static final int ROWS = 1_000;

  /** Memory bound of a case's reads, well inside the forked JVM's heap. */
  private static final long MAX_BUFFERED_BYTES = 16 << 20;

  @TempDir Path dir;

  /** A valid file the cases start from, decoded once. */
  private record Seed(
      String name,
      boolean parquet,
      byte[] bytes,
      ParquetSurgery parquetFile,
      OrcSurgery orcFile,
      List<String> columns) {}

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyStructurallyCorruptFileEndsInDataOrADocumentedErrorWithoutLeaks() throws Exception {
    int cases = Integer.getInteger("fuzz.structure.cases", 3000);
    long seed = Long.getLong("fuzz.seed", 20261201L);
    List<Seed> seeds = writeSeeds();
    Random random = new Random(seed);
    MemoryCache cache = MemoryCache.builder().maximumBytes(8 << 20).build();
    ReadContext plain =
        ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
    ReadContext cached =
        ReadContext.builder()
            .configuration(FaultInjectingFileSystem.configuration())
            .cache(cache)
            .build();
    FuzzCases run = new FuzzCases();
    try (run) {
      for (int i = 0; i < cases; i++) {
        Seed base = seeds.get(i % seeds.size());
        StructureMutations.Mutated mutated =
            base.parquet()
                ? StructureMutations.parquet(base.parquetFile(), random)
                : StructureMutations.orc(base.orcFile(), random);
        Path file =
            dir.resolve("case-" + i + "-" + base.name() + (base.parquet() ? ".parquet" : ".orc"));
        Files.write(file, mutated.bytes());
        Path other = random.nextInt(8) == 0 ? dir.resolve(base.name() + ".seed") : null;
        Read read = read(random, base, file, other, random.nextInt(4) == 0 ? cached : plain);
        String kind = mutated.description().replaceAll("[=(].*", "").replaceAll("[0-9]+", "#");
        run.run(
            i,
            file,
            base.name() + " " + mutated.description() + " " + read,
            base.name() + " " + kind,
            read::run,
            rows -> Outcome.DATA_DIFFERENT,
            thrown -> {
              Outcome outcome = FuzzCases.classify(thrown, file);
              return outcome == Outcome.BUG && other != null
                  ? FuzzCases.classify(thrown, other)
                  : outcome;
            });
      }
    }
    run.reportAndAssertNoBugs("Structure fuzz", cases, seeds.size(), seed);
  }

  /** One case's read: its files, options and context, told in a failure. */
  private record Read(
      List<DataFile> files, ReadOptions options, ReadContext context, String description) {

    String run() throws Exception {
      long rows = 0;
      try (BatchReader reader = Readers.open(files, options, context)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          rows += batch.rowCount();
          batch.release();
        }
      }
      return Long.toString(rows);
    }

    @Override
    public String toString() {
      return description;
    }
  }

  private static Read read(Random random, Seed base, Path file, Path other, ReadContext context)
      throws java.io.IOException {
    StringBuilder told = new StringBuilder();
    ReadOptions.Builder options =
        ReadOptions.builder()
            .batchSize(random.nextBoolean() ? 1024 : 1 + random.nextInt(500))
            .maxBufferedBytes(MAX_BUFFERED_BYTES)
            .verifyChecksums(base.parquet() && random.nextBoolean());
    if (random.nextInt(3) == 0) {
      options
          .prefetchEnabled(true)
          .parallelism(1 + random.nextInt(4))
          .minReadBytes(0)
          .queueCapacity(1 + random.nextInt(8))
          .property(OrcOptions.NATURAL_READ_SIZE, "16k");
      told.append("prefetch ");
    } else {
      options.prefetchEnabled(false);
    }
    if (random.nextInt(3) == 0) {
      List<String> columns = new ArrayList<>();
      for (String column : base.columns()) {
        if (random.nextBoolean()) {
          columns.add(column);
        }
      }
      if (!columns.isEmpty()) {
        options.columns(columns);
        told.append("columns ").append(columns).append(' ');
      }
    }
    if (random.nextInt(5) == 0) {
      long bound = random.nextInt(ROWS);
      options.filter(
          base.parquet()
              ? FilterApi.lt(FilterApi.longColumn("id"), bound)
              : SearchArgumentFactory.newBuilder()
                  .lessThan("id", PredicateLeaf.Type.LONG, bound)
                  .build());
      told.append("filter id < ").append(bound).append(' ');
    }
    if (random.nextInt(5) == 0) {
      long first = random.nextInt(ROWS);
      long end = first + 1 + random.nextInt(ROWS);
      options.rowRanges(List.of(new RowRange(first, end)));
      told.append("rows ").append(first).append("..").append(end).append(' ');
    }
    if (base.parquet() && random.nextInt(4) == 0) {
      options
          .property(ParquetOptions.SPLIT_ROW_GROUPS, String.valueOf(random.nextBoolean()))
          .property(ParquetOptions.OFFSET_INDEX_CACHE, String.valueOf(random.nextBoolean()));
    }
    List<DataFile> files = new ArrayList<>();
    org.apache.hadoop.fs.Path path = FaultInjectingFileSystem.path(file);
    if (random.nextInt(6) == 0) {
      long length = Files.size(file);
      long from = (long) (random.nextDouble() * length);
      long span = 1 + (long) (random.nextDouble() * (length - from));
      files.add(DataFile.split(path, from, span));
      told.append("split ").append(from).append("+").append(span).append(' ');
    } else {
      files.add(DataFile.of(path));
    }
    if (other != null) {
      DataFile valid = DataFile.of(FaultInjectingFileSystem.path(other));
      if (random.nextBoolean()) {
        files.add(0, valid);
      } else {
        files.add(valid);
      }
      told.append("with a valid file ");
    }
    if (context.cache() != null) {
      told.append("cached ");
    }
    return new Read(files, options.build(), context, told.toString().trim());
  }

  private List<Seed> writeSeeds() throws Exception {
    List<Seed> seeds = new ArrayList<>();
    for (ParquetVariant variant : ParquetVariant.values()) {
      Path file =
          TestFiles.parquet(
              dir.resolve(variant.name().toLowerCase() + ".parquet"), variant, ROWS, true);
      byte[] bytes = Files.readAllBytes(file);
      Files.copy(file, dir.resolve(variant.name() + ".seed"));
      seeds.add(
          new Seed(variant.name(), true, bytes, new ParquetSurgery(bytes), null, columns(file)));
    }
    for (OrcVariant variant : OrcVariant.values()) {
      Path file = TestFiles.orc(dir.resolve(variant.name().toLowerCase() + ".orc"), variant, ROWS);
      byte[] bytes = Files.readAllBytes(file);
      Files.copy(file, dir.resolve("ORC_" + variant.name() + ".seed"));
      seeds.add(
          new Seed(
              "ORC_" + variant.name(), false, bytes, null, new OrcSurgery(bytes), columns(file)));
    }
    for (OrcWriterFile file : FuzzCases.otherOrcWriters(dir.resolve("orc-writers"))) {
      byte[] bytes = Files.readAllBytes(file.path());
      String name = FuzzCases.seedName(file);
      Files.copy(file.path(), dir.resolve(name + ".seed"));
      seeds.add(new Seed(name, false, bytes, null, new OrcSurgery(bytes), columns(file.path())));
    }
    return seeds;
  }

  private static List<String> columns(Path file) throws java.io.IOException {
    try (BatchReader reader =
        Readers.open(
            DataFile.of(file),
            ReadOptions.builder().prefetchEnabled(false).build(),
            ReadContext.defaults())) {
      List<String> names = new ArrayList<>();
      reader.schema().fields().forEach(field -> names.add(field.name()));
      return names;
    }
  }
}
