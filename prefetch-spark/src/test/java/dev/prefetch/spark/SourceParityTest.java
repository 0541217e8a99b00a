package dev.prefetch.spark;

import static dev.prefetch.spark.SharedSpark.assertSameRows;
import static dev.prefetch.spark.SharedSpark.builtIn;
import static dev.prefetch.spark.SharedSpark.generate;
import static dev.prefetch.spark.SharedSpark.prefetch;

import dev.prefetch.testkit.gen.GenSpec;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code format("prefetch")} returns exactly what Spark's own Parquet and ORC readers return, on
 * the generator's files and on files Spark wrote, whole and through Spark's splits.
 */
class SourceParityTest {

  @TempDir static Path dir;

  private static SparkSession spark;

  /** Every Spark type the formats hold, with nulls in every column. */
  static final String ALL_TYPES_SQL =
      "SELECT id,"
          + " IF(id % 7 = 0, NULL, CAST(id % 100 AS TINYINT)) AS b,"
          + " IF(id % 7 = 1, NULL, CAST(id * 3 AS SMALLINT)) AS s,"
          + " IF(id % 7 = 2, NULL, CAST(id * 31 AS INT)) AS i,"
          + " IF(id % 7 = 3, NULL, id * 1000003) AS l,"
          + " IF(id % 7 = 4, NULL, CAST(id / 3.0 AS FLOAT)) AS f,"
          + " IF(id % 7 = 5, NULL, IF(id % 50 = 0, CAST('NaN' AS DOUBLE), id / 7.0)) AS d,"
          + " IF(id % 7 = 6, NULL, CAST(id / 100.0 AS DECIMAL(9, 2))) AS dec9,"
          + " IF(id % 5 = 0, NULL, CAST(id * 12345.6789 AS DECIMAL(18, 4))) AS dec18,"
          + " IF(id % 5 = 1, NULL, CAST(id AS DECIMAL(38, 6)) * 1000000000000000) AS dec38,"
          + " IF(id % 5 = 2, NULL, CONCAT('s-', id, IF(id % 3 = 0, ' \u00e9\u00e8\u4e2d', ''))) AS str,"
          + " IF(id % 5 = 3, NULL, CAST(CONCAT('bin', id) AS BINARY)) AS bin,"
          + " IF(id % 5 = 4, NULL, id % 2 = 0) AS flag,"
          + " IF(id % 6 = 0, NULL, DATE_ADD(DATE'1969-12-25', CAST(id AS INT))) AS day,"
          + " IF(id % 6 = 1, NULL, TIMESTAMP_MICROS(id * 86400000123 - 1000000000000)) AS ts,"
          + " IF(id % 6 = 2, NULL, CAST(TIMESTAMP_MICROS(id * 3600000007) AS TIMESTAMP_NTZ)) AS ts_ntz,"
          + " IF(id % 6 = 3, NULL, SEQUENCE(0, CAST(id % 4 AS INT))) AS ints,"
          + " IF(id % 6 = 4, NULL, MAP(CONCAT('k', id % 3), id, 'z', IF(id % 2 = 0, NULL, id))) AS m,"
          + " IF(id % 6 = 5, NULL, NAMED_STRUCT('x', id * 1.5, 'y', CONCAT('y', id),"
          + "     'inner', NAMED_STRUCT('z', CAST(id AS INT)))) AS st,"
          + " ARRAY(NAMED_STRUCT('k', CAST(id % 3 AS INT), 'v', IF(id % 4 = 0, NULL, CONCAT('v', id))))"
          + "     AS events"
          + " FROM RANGE(0, 3000, 1, 3)";

  @BeforeAll
  static void writeFiles() throws Exception {
    spark = SharedSpark.session();
    for (String format : new String[] {"parquet", "orc"}) {
      generate(
          dir.resolve("gen-scan-" + format),
          format,
          GenSpec.Kind.SCAN,
          20_000,
          4,
          16 << 10,
          "snappy");
      generate(
          dir.resolve("gen-nested-" + format),
          format,
          GenSpec.Kind.NESTED,
          5_000,
          3,
          16 << 10,
          "zstd");
      spark
          .sql(ALL_TYPES_SQL)
          .write()
          .format(format)
          .save(dir.resolve("spark-" + format).toString());
    }
    spark.conf().set("spark.sql.parquet.writeLegacyFormat", "true");
    try {
      spark.sql(ALL_TYPES_SQL).write().parquet(dir.resolve("spark-legacy-parquet").toString());
    } finally {
      spark.conf().unset("spark.sql.parquet.writeLegacyFormat");
    }
    spark.conf().set("spark.sql.parquet.outputTimestampType", "INT96");
    try {
      spark.sql(ALL_TYPES_SQL).write().parquet(dir.resolve("spark-int96-parquet").toString());
    } finally {
      spark.conf().unset("spark.sql.parquet.outputTimestampType");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void generatedScanTableReadsAsSparkReadsIt(String format) {
    assertSameRows(builtIn(dir, format, "gen-scan-" + format), prefetch(dir, "gen-scan-" + format));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void generatedNestedTableReadsAsSparkReadsIt(String format) {
    assertSameRows(
        builtIn(dir, format, "gen-nested-" + format), prefetch(dir, "gen-nested-" + format));
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void filesSparkWroteWithEveryTypeReadAsSparkReadsThem(String format) {
    assertSameRows(builtIn(dir, format, "spark-" + format), prefetch(dir, "spark-" + format));
  }

  @Test
  void legacyParquetLayoutReadsAsSparkReadsIt() {
    assertSameRows(
        builtIn(dir, "parquet", "spark-legacy-parquet"), prefetch(dir, "spark-legacy-parquet"));
  }

  @Test
  void int96TimestampsReadAsSparkReadsThem() {
    assertSameRows(
        builtIn(dir, "parquet", "spark-int96-parquet"), prefetch(dir, "spark-int96-parquet"));
  }
}
