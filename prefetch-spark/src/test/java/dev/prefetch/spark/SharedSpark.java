package dev.prefetch.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One local SparkSession for the test JVM (Spark allows one context per JVM and starting one takes
 * seconds), and the comparison every parity test makes.
 */
final class SharedSpark {

  @GuardedBy("SharedSpark.class")
  private static SparkSession session;

  private SharedSpark() {}

  /** The shared {@code local[2]} session, started on first use. */
  static synchronized SparkSession session() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("prefetch-spark-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.sql.session.timeZone", "UTC")
              .config("spark.sql.adaptive.enabled", "false")
              .getOrCreate();
    }
    return session;
  }

  /** Stops the shared session (a test that needs another master starts its own after). */
  static synchronized void stop() {
    if (session != null) {
      session.stop();
      session = null;
    }
  }

  /**
   * Writes a generated table of {@code rows} rows in {@code rowGroups} row groups (or stripes) of
   * {@code pageBytes} pages, with every default otherwise, as the one file of the directory {@code
   * table}: Spark's file sources read a table from a directory.
   */
  static void generate(
      Path table,
      String format,
      GenSpec.Kind kind,
      long rows,
      int rowGroups,
      int pageBytes,
      String codec)
      throws IOException {
    GenSpec spec =
        GenSpec.inRowGroups(format, kind, rows, rowGroups, pageBytes, codec, GenSpec.DEFAULT_SEED);
    Files.createDirectories(table);
    Generator.write(spec, table.resolve(kind.name().toLowerCase(Locale.ROOT) + "." + format));
  }

  /** The table in {@code dir}'s sub-directory {@code name}, read by Spark's own {@code format}. */
  static Dataset<Row> builtIn(Path dir, String format, String name) {
    return session().read().format(format).load(dir.resolve(name).toString());
  }

  /** The table in {@code dir}'s sub-directory {@code name}, read by our source. */
  static Dataset<Row> prefetch(Path dir, String name) {
    return session().read().format("prefetch").load(dir.resolve(name).toString());
  }

  /**
   * Asserts that two datasets hold the same rows, duplicates included: equal schemas, equal counts
   * and {@code exceptAll} empty both ways. Columns holding maps (which Spark cannot compare in set
   * operations) are compared as their JSON text.
   */
  static void assertSameRows(Dataset<Row> expected, Dataset<Row> actual) {
    assertThat(actual.schema().treeString()).isEqualTo(expected.schema().treeString());
    Dataset<Row> e = comparable(expected);
    Dataset<Row> a = comparable(actual);
    long count = e.count();
    assertThat(a.count()).as("row count").isEqualTo(count);
    List<Row> missing = e.exceptAll(a).limit(5).collectAsList();
    assertThat(missing).as("rows of the built-in reader missing from prefetch's").isEmpty();
    List<Row> extra = a.exceptAll(e).limit(5).collectAsList();
    assertThat(extra).as("rows of prefetch's not in the built-in reader's").isEmpty();
  }

  private static Dataset<Row> comparable(Dataset<Row> data) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : data.schema().fields()) {
      Column column = data.col("`" + field.name() + "`");
      columns.add(
          hasMap(field.dataType())
              ? functions.to_json(functions.struct(column)).as(field.name())
              : column);
    }
    return data.select(columns.toArray(new Column[0]));
  }

  private static boolean hasMap(DataType type) {
    if (type instanceof MapType) {
      return true;
    }
    if (type instanceof ArrayType array) {
      return hasMap(array.elementType());
    }
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        if (hasMap(field.dataType())) {
          return true;
        }
      }
    }
    return false;
  }
}
