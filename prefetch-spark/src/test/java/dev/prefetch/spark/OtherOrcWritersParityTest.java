package dev.prefetch.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.orc.testing.OrcWriterCorpus;
import dev.prefetch.orc.testing.OrcWriterCorpus.OrcWriterFile;
import dev.prefetch.orc.testing.OrcWriterCorpus.Trait;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code format("prefetch")} returns what Spark's own ORC reader returns on the ORC files of other
 * writers ({@link OrcWriterCorpus}: the C++ writer's and Trino's, orc-core's legacy settings),
 * where Spark's reader can read them. Two things it cannot, each checked to still be so: a file
 * with a union column (Spark SQL has no union type, and its reader fails on the file's schema
 * whatever columns are read; our source reads the union as a struct of its tag and alternatives,
 * which the conformance tests compare with orc-core and Arrow C++), and the C++ writer's negative
 * nanoseconds before 1970 (its reader hands orc-core's nanoseconds to {@code java.sql.Timestamp},
 * which refuses them; our source reads the value the writer meant, as Arrow C++ does, which
 * integration-tests' conformance test checks; here only the other columns are compared).
 */
class OtherOrcWritersParityTest {

  @TempDir static Path dir;

  static List<OrcWriterFile> corpus;

  @BeforeAll
  static void writeCorpus() throws Exception {
    corpus = OrcWriterCorpus.write(dir);
  }

  /**
   * Every file but the types tables in other codecs than one per writer: the codecs are orc-core's
   * to decode in either reader, and format-orc's and the conformance tests read every codec.
   */
  static Stream<String> names() {
    return OrcWriterCorpus.files().stream()
        .map(OrcWriterFile::name)
        .filter(
            name ->
                !name.contains("-types-")
                    || name.equals("cpp/cpp-types-zstd.orc")
                    || name.equals("trino/trino-types-zlib.orc"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void everyFileReadsAsSparksOrcReaderReadsIt(String name) {
    OrcWriterFile file =
        corpus.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    SparkSession spark = SharedSpark.session();
    String path = file.path().toString();
    Dataset<Row> ours = spark.read().format("prefetch").load(path);
    if (file.has(Trait.UNION)) {
      assertThatThrownBy(() -> spark.read().format("orc").load(path))
          .as("Spark's ORC reader cannot type a union column")
          .hasMessageContaining("Syntax error");
      assertThat(ours.filter("u is not null").count()).isEqualTo(file.rows());
    } else if (file.has(Trait.NEGATIVE_NANOS)) {
      assertThatThrownBy(() -> spark.read().format("orc").load(path).collectAsList())
          .as("Spark's ORC reader refuses the negative nanoseconds orc-core hands it")
          .hasStackTraceContaining("nanos > 999999999 or < 0");
      assertSameRowsById(spark.read().format("orc").load(path).select("id"), ours.select("id"));
      assertThat(ours.filter("ts is not null").count()).isPositive();
    } else {
      assertSameRowsById(spark.read().format("orc").load(path), ours);
    }
  }

  /**
   * The same schema and rows, compared in order of their {@code id} after one collect per side (the
   * files are small; Spark's set operations would cost several jobs per file).
   */
  private static void assertSameRowsById(Dataset<Row> expected, Dataset<Row> actual) {
    assertThat(actual.schema().treeString()).isEqualTo(expected.schema().treeString());
    assertThat(byId(actual)).isEqualTo(byId(expected));
  }

  private static List<Row> byId(Dataset<Row> data) {
    List<Row> rows = new ArrayList<>(data.collectAsList());
    int id = data.schema().fieldIndex("id");
    rows.sort(Comparator.comparingLong(row -> row.getLong(id)));
    return rows;
  }
}
