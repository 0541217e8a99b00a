package dev.prefetch.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prefetch.spark.tools.SparkScan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
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
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/spark-scan} aggregates files with map columns, which Spark refuses to hash, at every
 * depth: maps Spark wrote (in arrays, structs and as map values), maps in parquet-java's legacy
 * layouts ({@code MAP_KEY_VALUE}, as older Hive and parquet-mr writers wrote them), maps in the
 * layout Impala writes (maps of maps, arrays of maps, maps in structs) and ORC maps from orc-core;
 * both contenders agree on each.
 */
class SparkScanMapsTest {

  private static final int ROWS = 600;

  @TempDir static Path dir;

  private static SparkSession spark;

  @BeforeAll
  static void writeFiles() throws Exception {
    spark = SharedSpark.session();
    String maps =
        "SELECT id, MAP(CONCAT('k', id % 3), id, 'z', IF(id % 2 = 0, NULL, id)) AS m,"
            + " IF(id % 5 = 0, NULL, ARRAY(MAP(id, CONCAT('v', id)), MAP())) AS maps,"
            + " NAMED_STRUCT('n', CAST(id AS INT), 'm', MAP('a', ARRAY(id, id + 1))) AS st,"
            + " MAP('outer', MAP(CAST(id AS STRING), id / 4.0)) AS nested"
            + " FROM RANGE(0, "
            + ROWS
            + ", 1, 2)";
    spark.sql(maps).write().parquet(dir.resolve("spark-parquet").toString());
    spark.sql(maps).write().orc(dir.resolve("spark-orc").toString());
    writeLegacyAndImpalaParquet(dir.resolve("legacy-parquet").resolve("maps.parquet"));
    writeOrcMaps(dir.resolve("orc-core").resolve("maps.orc"));
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void filesWithMapsAtAnyDepthAggregateAndBothContendersAgree() throws Exception {
    List<Path> inputs =
        List.of(
            dir.resolve("spark-parquet"),
            dir.resolve("spark-orc"),
            dir.resolve("legacy-parquet"),
            dir.resolve("orc-core"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    int status;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      status = SparkScan.compare(spark, inputs, false, null, 1, 0);
    } finally {
      System.setOut(stdout);
    }
    String lines = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(lines).isZero();
    List<JsonNode> results = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines.lines().toList()) {
      if (line.startsWith("{")) {
        results.add(json.readTree(line));
      }
    }
    assertThat(results).hasSize(8);
    for (JsonNode result : results) {
      assertThat(result.get("rows").asLong()).as(result.toString()).isEqualTo(ROWS);
      for (Map.Entry<String, JsonNode> column : result.get("columns").properties()) {
        assertThat(column.getValue().asText())
            .as(result.get("input") + " " + column.getKey())
            .isNotEqualTo("null");
      }
    }
  }

  @Test
  void aMapsHashDoesNotDependOnTheOrderOfItsEntries() {
    List<org.apache.spark.sql.Row> hashes =
        spark
            .sql("SELECT MAP(1, 'a', 2, 'b') AS m UNION ALL SELECT MAP(2, 'b', 1, 'a')")
            .select(
                org.apache.spark.sql.functions.hash(
                    SparkScan.hashable(
                        org.apache.spark.sql.functions.col("m"),
                        new org.apache.spark.sql.types.MapType(
                            org.apache.spark.sql.types.DataTypes.IntegerType,
                            org.apache.spark.sql.types.DataTypes.StringType,
                            true))))
            .collectAsList();
    assertThat(hashes).hasSize(2);
    assertThat(hashes.get(0)).isEqualTo(hashes.get(1));
  }

  /**
   * parquet-java's legacy map layouts and the one Impala writes: a map annotated {@code
   * MAP_KEY_VALUE}, a map whose repeated group is {@code MAP_KEY_VALUE}, and Impala's {@code
   * map}/{@code key}/{@code value} groups holding a map of maps, an array of maps and a map in a
   * struct.
   */
  private static void writeLegacyAndImpalaParquet(Path file) throws Exception {
    MessageType type =
        MessageTypeParser.parseMessageType(
            "message m { required int64 id;"
                + " optional group legacy1 (MAP) { repeated group map (MAP_KEY_VALUE) {"
                + "   required binary key (UTF8); optional int32 value; } }"
                + " optional group legacy2 (MAP_KEY_VALUE) { repeated group map {"
                + "   required int32 key; optional binary value (UTF8); } }"
                + " optional group map_map (MAP) { repeated group map { required binary key (UTF8);"
                + "   optional group value (MAP) { repeated group map { required binary key (UTF8);"
                + "     optional double value; } } } }"
                + " optional group map_array (LIST) { repeated group list {"
                + "   optional group element (MAP) { repeated group map { required binary key (UTF8);"
                + "     optional int32 value; } } } }"
                + " optional group struct_map { optional int32 a;"
                + "   optional group m (MAP) { repeated group map { required int32 key;"
                + "     optional binary value (UTF8); } } } }");
    Files.createDirectories(file.getParent());
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(type)
            .withPageRowCountLimit(50)
            .build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup().append("id", (long) i);
        if (i % 7 != 0) {
          Group legacy1 = g.addGroup("legacy1");
          Group legacy2 = g.addGroup("legacy2");
          Group mapMap = g.addGroup("map_map");
          Group mapArray = g.addGroup("map_array");
          Group structMap = g.addGroup("struct_map").append("a", i);
          Group m = structMap.addGroup("m");
          for (int k = 0; k < i % 4; k++) {
            Group e1 = legacy1.addGroup("map").append("key", "k" + k);
            if (k != 1) {
              e1.append("value", i * k);
            }
            Group e2 = legacy2.addGroup("map").append("key", k);
            if (k != 2) {
              e2.append("value", "v" + i + "." + k);
            }
            Group inner = mapMap.addGroup("map").append("key", "o" + k).addGroup("value");
            for (int j = 0; j <= k; j++) {
              inner.addGroup("map").append("key", "i" + j).append("value", i / (j + 1.0));
            }
            Group element = mapArray.addGroup("list").addGroup("element");
            element.addGroup("map").append("key", "e" + k).append("value", i + k);
            m.addGroup("map").append("key", k).append("value", "s" + (i + k));
          }
        }
        writer.write(g);
      }
    }
  }

  /** An ORC map column and an ORC list of maps, from orc-core. */
  private static void writeOrcMaps(Path file) throws Exception {
    TypeDescription schema =
        TypeDescription.fromString(
            "struct<id:bigint,m:map<string,bigint>,ms:array<map<bigint,string>>>");
    Files.createDirectories(file.getParent());
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      LongColumnVector id = (LongColumnVector) batch.cols[0];
      MapColumnVector m = (MapColumnVector) batch.cols[1];
      BytesColumnVector keys = (BytesColumnVector) m.keys;
      LongColumnVector values = (LongColumnVector) m.values;
      ListColumnVector ms = (ListColumnVector) batch.cols[2];
      MapColumnVector inner = (MapColumnVector) ms.child;
      LongColumnVector innerKeys = (LongColumnVector) inner.keys;
      BytesColumnVector innerValues = (BytesColumnVector) inner.values;
      for (int row = 0; row < ROWS; row++) {
        int r = batch.size++;
        id.vector[r] = row;
        int entries = row % 4;
        m.offsets[r] = m.childCount;
        m.lengths[r] = entries;
        m.childCount += entries;
        keys.ensureSize(m.childCount, true);
        values.ensureSize(m.childCount, true);
        for (int k = 0; k < entries; k++) {
          int e = (int) m.offsets[r] + k;
          keys.setVal(e, ("k" + k).getBytes(StandardCharsets.UTF_8));
          values.vector[e] = (long) row * k;
        }
        ms.offsets[r] = ms.childCount;
        ms.lengths[r] = 1;
        ms.childCount += 1;
        inner.ensureSize(ms.childCount, true);
        int element = (int) ms.offsets[r];
        inner.offsets[element] = inner.childCount;
        inner.lengths[element] = 2;
        inner.childCount += 2;
        innerKeys.ensureSize(inner.childCount, true);
        innerValues.ensureSize(inner.childCount, true);
        for (int k = 0; k < 2; k++) {
          int e = (int) inner.offsets[element] + k;
          innerKeys.vector[e] = (long) row + k;
          innerValues.setVal(e, ("v" + row + k).getBytes(StandardCharsets.UTF_8));
        }
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
          m.childCount = 0;
          ms.childCount = 0;
          inner.childCount = 0;
        }
      }
      writer.addRowBatch(batch);
    }
  }
}
