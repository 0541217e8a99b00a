package dev.prefetch.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.parquet.ParquetOptions;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The dictionary-vectors column list names the table's columns as a Spark query does. */
class DictionaryColumnNamesTest {

  private static final StructType TABLE =
      new StructType().add("id", DataTypes.LongType).add("City", DataTypes.StringType);

  private static String resolved(String value, boolean caseSensitive) {
    return DictionaryColumnNames.resolve(
            Map.of(ParquetOptions.DICTIONARY_VECTORS, value, "read.batch-size", "10"),
            TABLE,
            caseSensitive)
        .get(ParquetOptions.DICTIONARY_VECTORS);
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
    assertThat(DictionaryColumnNames.resolve(without, TABLE, false)).isSameAs(without);
  }
}
