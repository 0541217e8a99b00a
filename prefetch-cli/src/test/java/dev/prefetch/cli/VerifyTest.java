package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.testkit.scan.Contender;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify} names every column that differs, with its first differing row and both values: our
 * reader reads a copy whose values a test changed, the library the original.
 */
@Timeout(120)
class VerifyTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m {"
              + " required int64 id; optional binary name (UTF8); optional double x;"
              + " optional group tags (LIST) { repeated group list { optional int32 element; } } }");

  @TempDir Path dir;

  private Path parquet(String name, IntPredicate changed) throws IOException {
    Path file = dir.resolve(name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(SCHEMA)
            .build()) {
      for (int i = 0; i < 500; i++) {
        Group g = groups.newGroup().append("id", (long) i).append("x", i / 4.0);
        g.append("name", changed.test(i) ? "changed" : "n" + i);
        Group tags = g.addGroup("tags");
        for (int t = 0; t < i % 3 + (changed.test(i) ? 1 : 0); t++) {
          tags.addGroup("list").append("element", t);
        }
        writer.write(g);
      }
    }
    return file;
  }

  private static org.apache.hadoop.fs.Path hadoop(Path file) {
    return new org.apache.hadoop.fs.Path(file.toUri());
  }

  /**
   * Verifies {@code original} against itself (no problem) and {@code changed} by our single reader
   * against {@code original} by the format library: the problems of the second.
   */
  private static List<String> problems(Path original, Path changed, String format)
      throws IOException {
    try (ReadContext context = ReadContext.defaults()) {
      Contender ours = Contender.ours("single", ReadOptions.defaults(), context, null);
      Contender library = Contender.library(new Configuration(), List.of(), null, null, null);
      assertThat(VerifyCommand.verify(ours, hadoop(original), library, hadoop(original), format))
          .isEmpty();
      return VerifyCommand.verify(ours, hadoop(changed), library, hadoop(original), format);
    }
  }

  @Test
  void everyDifferingColumnIsNamedWithItsFirstDifferingRowAndBothValues() throws IOException {
    Path original = parquet("original.parquet", i -> false);
    Path changed = parquet("changed.parquet", i -> i == 123 || i == 400);
    List<String> problems = problems(original, changed, "parquet");
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0))
        .contains(
            "column 'name'", "first at row 123", "ours [\"changed\"]", "parquet-hadoop [\"n123\"]");
    // a list: its length, then its elements
    assertThat(problems.get(1))
        .contains("column 'tags'", "first at row 123", "ours [1, 0]", "parquet-hadoop [0]");
  }

  @Test
  void orcColumnsThatDifferAreNamedToo() throws IOException {
    Path original = orc("original.orc", false);
    Path changed = orc("changed.orc", true);
    List<String> problems = problems(original, changed, "orc");
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0))
        .contains("column 'a'", "first at row 7", "ours [-7]", "orc-core [7]");
    assertThat(problems.get(1))
        .contains("column 's'", "first at row 9", "ours [null]", "orc-core [\"s9\"]");
  }

  private Path orc(String name, boolean change) throws IOException {
    Path file = dir.resolve(name);
    TypeDescription schema = TypeDescription.fromString("struct<a:bigint,s:string,k:int>");
    try (Writer writer =
        OrcFile.createWriter(
            hadoop(file),
            OrcFile.writerOptions(new Configuration()).setSchema(schema).overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch(100);
      for (int i = 0; i < 100; i++) {
        ((LongColumnVector) batch.cols[0]).vector[i] = change && i == 7 ? -7 : i;
        BytesColumnVector s = (BytesColumnVector) batch.cols[1];
        if (change && i == 9) {
          s.noNulls = false;
          s.isNull[i] = true;
        } else {
          s.setVal(i, ("s" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        ((LongColumnVector) batch.cols[2]).vector[i] = i * 2;
      }
      batch.size = 100;
      writer.addRowBatch(batch);
    }
    return file;
  }
}
