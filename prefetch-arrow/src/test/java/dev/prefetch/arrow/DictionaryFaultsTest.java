package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.testing.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A scan with dictionary-encoded fields that fails or ends early: a read error in a middle row
 * group, through the reader and through its C Data stream, and a consumer that still holds every
 * batch it imported (with their dictionaries) when it lets the stream go. Once everything is
 * closed, the allocator holds nothing, every file stream is closed and no producer is alive.
 */
@Timeout(60)
class DictionaryFaultsTest extends AllocatorTest {

  @TempDir static Path dir;
  static Path file;
  static long middleStart;
  static long middleEnd;

  @BeforeAll
  static void writeFile() throws IOException, SQLException {
    file =
        ArrowTestFiles.writeDuckDbDictionaries(dir.resolve("faulty-dictionaries.parquet"), 40_000);
    // A row group in the first half: the footer reader's speculative tail read stays clear.
    long[] middle = ArrowTestFiles.rowGroupSpan(file, 1, 3);
    middleStart = middle[0];
    middleEnd = middle[1];
    assertThat(middleEnd).isLessThan(java.nio.file.Files.size(file) - (128 << 10));
  }

  @BeforeEach
  void resetFaults() {
    FaultInjectingFileSystem.reset();
  }

  @AfterEach
  void clearFaults() {
    FaultInjectingFileSystem.reset();
  }

  private PrefetchArrowReader open(int parallelism, ReadContext context) throws IOException {
    ReadOptions options =
        ReadOptions.builder()
            .batchSize(500)
            .parallelism(parallelism)
            .prefetchEnabled(parallelism > 1)
            .property("prefetch.min-read-bytes", "0")
            // By parts: the faults aim at reads of row groups, which a small file read whole
            // would make at open.
            .wholeFileBytes(0)
            .build();
    PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(FaultInjectingFileSystem.path(file)), options, context, allocator);
    assertThat(reader.mapping().dictionaryEncodedColumns()).contains("category", "name", "tag");
    return reader;
  }

  private static ReadContext context() {
    return ReadContext.builder().configuration(FaultInjectingFileSystem.configuration()).build();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aReadErrorAfterDictionariesWereLoadedLeavesNothingOnceClosed(int parallelism)
      throws IOException {
    FaultInjectingFileSystem.faults(file).failReadsTouching(middleStart, middleEnd);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      if (parallelism == 1) {
        assertThat(reader.loadNextBatch()).isTrue();
        assertThat(reader.getDictionaryVectors()).isNotEmpty();
      }
      assertThatThrownBy(() -> readToTheEnd(reader))
          .isInstanceOf(ReadException.class)
          .hasMessageContaining("faulty-dictionaries.parquet");
      reader.close();
    }
    assertNothingLeft();
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aReadErrorCrossesTheCStreamAndItsReleaseLeavesNothing(int parallelism) throws IOException {
    FaultInjectingFileSystem.faults(file).failReadsTouching(middleStart, middleEnd);
    try (ReadContext context = context()) {
      PrefetchArrowReader reader = open(parallelism, context);
      throughTheCStream(
          reader,
          imported ->
              assertThatThrownBy(() -> readToTheEnd(imported))
                  .isInstanceOf(IOException.class)
                  .hasMessageContaining("faulty-dictionaries.parquet"));
    }
    assertNothingLeft();
  }

  /**
   * Every batch exported and imported one by one (each with its own copy-free dictionary), all
   * still open when the reader closes: they read their own values, and closing them last frees the
   * rest.
   */
  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void batchesAConsumerStillHoldsKeepTheirDictionariesAfterTheReaderCloses(int parallelism)
      throws Exception {
    List<AutoCloseable> held = new ArrayList<>();
    List<VectorSchemaRoot> roots = new ArrayList<>();
    List<CDataDictionaryProvider> providers = new ArrayList<>();
    List<List<Object>> names = new ArrayList<>();
    try (ReadContext context = context()) {
      try (PrefetchArrowReader reader = open(parallelism, context)) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        while (reader.loadNextBatch()) {
          CDataDictionaryProvider provider = new CDataDictionaryProvider();
          held.add(provider);
          try (ArrowArray array = ArrowArray.allocateNew(allocator);
              ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
            Data.exportVectorSchemaRoot(allocator, root, reader, array, schema);
            VectorSchemaRoot imported =
                Data.importVectorSchemaRoot(allocator, array, schema, provider);
            held.add(0, imported);
            roots.add(imported);
            providers.add(provider);
          }
          List<Object> values = new ArrayList<>();
          for (int row = 0; row < root.getRowCount(); row++) {
            values.add(ValueWalk.actual(root.getVector("name"), row, reader));
          }
          names.add(values);
        }
      }
      assertThat(roots).hasSizeGreaterThan(10);
      for (int b = 0; b < roots.size(); b++) {
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < roots.get(b).getRowCount(); row++) {
          values.add(ValueWalk.actual(roots.get(b).getVector("name"), row, providers.get(b)));
        }
        assertThat(values).as("batch %d", b).isEqualTo(names.get(b));
      }
      assertThat(allocator.getAllocatedMemory()).isPositive();
    } finally {
      for (AutoCloseable c : held) {
        c.close();
      }
    }
    assertNothingLeft();
  }
}
