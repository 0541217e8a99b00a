package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.ReadOptions;
import dev.prefetch.orc.internal.OrcFormat;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrcOptionsTest {

  @Test
  void aReadThatSetsNothingGetsTheDocumentedDefaults() {
    OrcOptions options = OrcOptions.from(ReadOptions.defaults());
    assertThat(options).isEqualTo(OrcOptions.defaults());
    assertThat(options.naturalReadSizeBytes()).isEqualTo(8L << 20);
    assertThat(options.prefetchThresholdBytes()).isEmpty();
    assertThat(options.libraryProperties()).isEmpty();
  }

  @Test
  void ownKeysAreParsedAndOtherOrcKeysGoToOrcCore() {
    OrcOptions options =
        OrcOptions.from(
            ReadOptions.fromProperties(
                Map.of(
                    "orc.read.natural-read-size", "2 MB",
                    "orc.read.enable-prefetch-read-size-threshold", "5m",
                    "orc.sarg.to.filter", "true",
                    "parquet.read.split-row-groups", "false")));
    assertThat(options.naturalReadSizeBytes()).isEqualTo(2L << 20);
    assertThat(options.prefetchThresholdBytes()).hasValue(5L << 20);
    assertThat(options.libraryProperties())
        .containsExactly(Map.entry("orc.sarg.to.filter", "true"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "orc.read.natural-read-size|0",
        "orc.read.natural-read-size|12 parsecs",
        "orc.read.enable-prefetch-read-size-threshold|-5"
      })
  void aBadValueIsRejectedNamingTheKeyAndTheValue(String key, String value) {
    ReadOptions options = ReadOptions.fromProperties(Map.of(key, value));
    assertThatThrownBy(() -> OrcOptions.from(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(value);
    assertThatThrownBy(() -> new OrcFormat().checkOptions(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }

  @Test
  void theRecordRefusesItsOwnKeysAsLibraryProperties() {
    assertThatThrownBy(
            () ->
                new OrcOptions(
                    1,
                    OptionalLong.empty(),
                    OrcOptions.DictionaryVectors.NONE,
                    Map.of(OrcOptions.NATURAL_READ_SIZE, "1")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
