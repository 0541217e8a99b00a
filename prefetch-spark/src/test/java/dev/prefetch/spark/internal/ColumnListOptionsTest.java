package dev.prefetch.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** A format's column-list option names the table's columns as a Spark query does. */
class ColumnListOptionsTest {

  /** Parquet's column-list option, which format-parquet's format declares. */
  private static final String DICTIONARY_VECTORS = "parquet.read.dictionary-vectors";

  private static final StructType TABLE =
      new StructType().add("id", DataTypes.LongType).add("City", DataTypes.StringType);

  private static String resolved(String value, boolean caseSensitive) {
    return ColumnListOptions.resolve(
            Map.of(DICTIONARY_VECTORS, value, "read.batch-size", "10"), TABLE, caseSensitive)
        .get(DICTIONARY_VECTORS);
  }

  @Test
  void namesResolveToTheTableColumnIgnoringCaseUnlessSparkIsCaseSensitive() {
    assertThat(resolved("city, ID", false)).isEqualTo("City,id");
    assertThat(resolved("city, ID", true)).isEqualTo("city, ID");
  }

  @Test
  void keywordsUnknownNamesAndMalformedListsAreLeftAsGiven() {
    assertThat(resolved(" ALL ", false)).isEqualTo(" ALL ");
    assertThat(resolved("None", false)).isEqualTo("None");
    assertThat(resolved("nowhere,city", false)).isEqualTo("nowhere,City");
    assertThat(resolved("city,,id", false)).isEqualTo("city,,id");
    Map<String, String> without = Map.of("read.batch-size", "10");
    assertThat(ColumnListOptions.resolve(without, TABLE, false)).isSameAs(without);
  }
}
