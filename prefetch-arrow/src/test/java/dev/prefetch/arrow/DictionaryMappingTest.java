package dev.prefetch.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which fields of a scan's Arrow schema are dictionary-encoded, decided at open from the file's
 * format, the column's type and {@code parquet.read.dictionary-vectors}.
 */
@Timeout(60)
class DictionaryMappingTest extends AllocatorTest {

  @TempDir static Path dir;
  static Path parquet;
  static Path orc;

  @BeforeAll
  static void writeFiles() throws IOException {
    parquet = ArrowTestFiles.writeParquet(dir.resolve("all.parquet"), 300, 3);
    orc = ArrowTestFiles.writeOrc(dir.resolve("all.orc"), 300, 3);
  }

  private static ArrowMapping mapping(Path file, ReadOptions options) throws IOException {
    try (BatchReader reader = Readers.open(file, options, ReadContext.defaults())) {
      return ArrowMapping.of(
          reader.schema(),
          new org.apache.hadoop.fs.Path(file.toUri()),
          new Configuration(),
          options);
    }
  }

  private static List<String> encodedFields(ArrowMapping mapping) {
    List<String> out = new ArrayList<>();
    for (Field f : mapping.arrowSchema().getFields()) {
      if (f.getDictionary() != null) {
        out.add(f.getName());
      }
    }
    return out;
  }

  @Test
  void byDefaultEveryTopLevelStringAndBinaryColumnOfAParquetFileIsEncoded() throws IOException {
    ArrowMapping mapping = mapping(parquet, ReadOptions.defaults());
    // Not the nested strings (lstr, m's keys, st.y), nor FLOAT16, decimals or INT96 in
    // fixed-size or binary columns: their batch types are not strings or binaries.
    assertThat(mapping.dictionaryEncodedColumns()).containsExactly("s", "bin", "uuid", "fixed5");
    assertThat(encodedFields(mapping)).containsExactly("s", "bin", "uuid", "fixed5");
    Field uuid = mapping.arrowSchema().findField("uuid");
    assertThat(uuid.getType()).isEqualTo(new ArrowType.FixedSizeBinary(16));
    assertThat(uuid.getDictionary().getId())
        .isEqualTo(mapping.arrowSchema().getFields().indexOf(uuid));
    TypeWalk.assertMapped(mapping.schema(), mapping.arrowSchema());
  }

  @Test
  void theOptionNarrowsTheEncodedColumnsToItsListOrToNone() throws IOException {
    ReadOptions listed =
        ReadOptions.builder().property("parquet.read.dictionary-vectors", " bin , i32").build();
    assertThat(mapping(parquet, listed).dictionaryEncodedColumns()).containsExactly("bin");
    ReadOptions none =
        ReadOptions.builder().property("parquet.read.dictionary-vectors", "none").build();
    assertThat(mapping(parquet, none).dictionaryEncodedColumns()).isEmpty();
    ReadOptions all =
        ReadOptions.builder().property("parquet.read.dictionary-vectors", "ALL").build();
    assertThat(mapping(parquet, all).dictionaryEncodedColumns()).hasSize(4);
  }

  @Test
  void byDefaultEveryTopLevelStringCharAndVarcharColumnOfAnOrcFileIsEncoded() throws IOException {
    // ORC stores no binary dictionary-encoded, and its chars and varchars read as strings
    assertThat(mapping(orc, ReadOptions.defaults()).dictionaryEncodedColumns())
        .containsExactlyInAnyOrder("s", "c", "vc");
    ReadOptions none =
        ReadOptions.builder().property("orc.read.dictionary-vectors", "none").build();
    assertThat(mapping(orc, none).dictionaryEncodedColumns()).isEmpty();
    ReadOptions listed =
        ReadOptions.builder().property("orc.read.dictionary-vectors", "vc").build();
    assertThat(mapping(orc, listed).dictionaryEncodedColumns()).containsExactly("vc");
  }

  @Test
  void theArrowReadersRootHoldsTheIndicesOfTheEncodedFields() throws IOException {
    ReadOptions options = ReadOptions.builder().columns("id", "s", "fixed5").build();
    try (PrefetchArrowReader reader =
        PrefetchArrowReader.open(
            DataFile.of(parquet), options, ReadContext.defaults(), allocator)) {
      assertThat(reader.mapping().dictionaryEncodedColumns()).containsExactly("s", "fixed5");
      assertThat(reader.getVectorSchemaRoot().getVector("s")).isInstanceOf(IntVector.class);
      assertThat(reader.getDictionaryIds()).containsExactlyInAnyOrder(1L, 2L);
      long rows = 0;
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
      assertThat(rows).isEqualTo(300);
    }
  }
}
