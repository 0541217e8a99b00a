package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.ParquetFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParquetOptionsTest {

  @Test
  void aReadThatSetsNothingGetsTheDocumentedDefaults() {
    ParquetOptions options = ParquetOptions.from(ReadOptions.defaults());
    assertThat(options).isEqualTo(ParquetOptions.defaults());
    assertThat(options.splitRowGroups()).isTrue();
    assertThat(options.offsetIndexCache()).isFalse();
    assertThat(options.int96Unit()).isEqualTo(DataType.TimeUnit.MICROS);
    assertThat(options.dictionaryVectors()).isEqualTo(ParquetOptions.DictionaryVectors.ALL);
    assertThat(options.coalesceGapBytes()).isEqualTo(256L << 10);
    assertThat(options.maxRequestBytes()).isEqualTo(64L << 20);
    assertThat(options.libraryProperties()).isEmpty();
  }

  @Test
  void ownKeysAreParsedAndOtherParquetKeysGoToTheLibrary() {
    ParquetOptions options =
        ParquetOptions.from(
            ReadOptions.fromProperties(
                Map.of(
                    "parquet.read.split-row-groups", "FALSE",
                    "parquet.read.enable-offset-index-cache", "true",
                    "parquet.read.int96-timestamp-unit", " Nanos ",
                    "parquet.read.row-groups", "3,1",
                    "parquet.read.dictionary-vectors", " l_shipmode, l_comment ",
                    "parquet.read.coalesce-gap-bytes", "512k",
                    "parquet.read.max-request-bytes", "8 MiB",
                    "parquet.page.size.row.check.min", "7",
                    "orc.read.natural-read-size", "1m",
                    "prefetch.parallelism", "2")));
    assertThat(options.splitRowGroups()).isFalse();
    assertThat(options.offsetIndexCache()).isTrue();
    assertThat(options.int96Unit()).isEqualTo(DataType.TimeUnit.NANOS);
    assertThat(options.dictionaryVectors().includes("l_shipmode")).isTrue();
    assertThat(options.dictionaryVectors().includes("l_comment")).isTrue();
    assertThat(options.dictionaryVectors().includes("l_returnflag")).isFalse();
    assertThat(options.coalesceGapBytes()).isEqualTo(512 << 10);
    assertThat(options.maxRequestBytes()).isEqualTo(8 << 20);
    assertThat(options.libraryProperties())
        .containsExactly(Map.entry("parquet.page.size.row.check.min", "7"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "parquet.read.split-row-groups|maybe",
        "parquet.read.enable-offset-index-cache|1",
        "parquet.read.int96-timestamp-unit|seconds",
        "parquet.read.row-groups|1,x",
        "parquet.read.dictionary-vectors|a,,b",
        "parquet.read.coalesce-gap-bytes|-1",
        "parquet.read.coalesce-gap-bytes|1 furlong",
        "parquet.read.coalesce-gap-bytes|2g",
        "parquet.read.max-request-bytes|0",
        "parquet.read.max-request-bytes|4g",
        "parquet.read.max-request-bytes|lots"
      })
  void aBadValueIsRejectedNamingTheKeyAndTheValue(String key, String value) {
    ReadOptions options = ReadOptions.fromProperties(Map.of(key, value));
    assertThatThrownBy(() -> ParquetOptions.from(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(value);
    assertThatThrownBy(() -> new ParquetFormat().checkOptions(options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }

  @Test
  void aGapOfZeroTurnsCoalescingOff() {
    ParquetOptions options = ParquetOptions.from(Map.of(ParquetOptions.COALESCE_GAP_BYTES, "0"));
    assertThat(options.coalesceGapBytes()).isZero();
  }

  @Test
  void theRecordRefusesAnotherUnitSizesOutOfRangeOrItsOwnKeysAsLibraryProperties() {
    ParquetOptions.DictionaryVectors all = ParquetOptions.DictionaryVectors.ALL;
    long gap = ParquetOptions.DEFAULT_COALESCE_GAP_BYTES;
    long max = ParquetOptions.DEFAULT_MAX_REQUEST_BYTES;
    assertThatThrownBy(
            () ->
                new ParquetOptions(true, false, DataType.TimeUnit.MILLIS, all, gap, max, Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new ParquetOptions(true, false, DataType.TimeUnit.MICROS, all, -1, max, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ParquetOptions.COALESCE_GAP_BYTES);
    assertThatThrownBy(
            () -> new ParquetOptions(true, false, DataType.TimeUnit.MICROS, all, gap, 0, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ParquetOptions.MAX_REQUEST_BYTES);
    assertThatThrownBy(
            () ->
                new ParquetOptions(
                    true,
                    false,
                    DataType.TimeUnit.MICROS,
                    ParquetOptions.DictionaryVectors.NONE,
                    gap,
                    max,
                    Map.of(ParquetOptions.SPLIT_ROW_GROUPS, "true")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void dictionaryVectorsAreAllNoneOrAListOfColumns() {
    assertThat(parse("NONE").includes("a")).isFalse();
    assertThat(parse(" all ").includes("anything")).isTrue();
    assertThat(parse("a").columns()).containsExactly("a");
  }

  private static ParquetOptions.DictionaryVectors parse(String value) {
    return ParquetOptions.from(Map.of(ParquetOptions.DICTIONARY_VECTORS, value))
        .dictionaryVectors();
  }
}
