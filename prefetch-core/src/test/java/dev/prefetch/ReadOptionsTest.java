package dev.prefetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReadOptionsTest {

  @Test
  void defaultsFollowTheDocumentedTable() {
    ReadOptions options = ReadOptions.defaults();
    assertThat(options.batchSize()).isEqualTo(4096);
    assertThat(options.prefetchEnabled()).isTrue();
    assertThat(options.parallelism())
        .isEqualTo(Math.min(8, Math.max(2, Runtime.getRuntime().availableProcessors())));
    assertThat(options.queueCapacity()).isEqualTo(256);
    assertThat(options.maxBufferedBytes()).isEqualTo(256L << 20);
    assertThat(options.minReadBytes()).isEqualTo(10L << 20);
    assertThat(options.columns()).isEmpty();
    assertThat(options.formatProperties()).isEmpty();
    assertThat(options.rowRanges()).isNull();
  }

  @Test
  void everyKnownKeyIsParsed() {
    ReadOptions options =
        ReadOptions.fromProperties(
            Map.ofEntries(
                Map.entry("read.batch-size", "100"),
                Map.entry("read.columns", "a, b.c"),
                Map.entry("read.verify-checksums", "TRUE"),
                Map.entry("prefetch.enabled", "false"),
                Map.entry("prefetch.parallelism", "3"),
                Map.entry("prefetch.queue-capacity", "2"),
                Map.entry("prefetch.max-buffered-bytes", "64m"),
                Map.entry("prefetch.min-read-bytes", "1KiB"),
                Map.entry("orc.read.natural-read-size", "2 MB"),
                Map.entry("parquet.read.split-row-groups", "false"),
                Map.entry("parquet.read.enable-offset-index-cache", "true"),
                Map.entry("parquet.page.size.row.check.min", "7")));
    assertThat(options.batchSize()).isEqualTo(100);
    assertThat(options.columns()).containsExactly("a", "b.c");
    assertThat(options.verifyChecksums()).isTrue();
    assertThat(options.prefetchEnabled()).isFalse();
    assertThat(options.parallelism()).isEqualTo(3);
    assertThat(options.queueCapacity()).isEqualTo(2);
    assertThat(options.maxBufferedBytes()).isEqualTo(64L << 20);
    assertThat(options.minReadBytes()).isEqualTo(1024);
    assertThat(options.properties()).containsEntry("parquet.page.size.row.check.min", "7");
  }

  @Test
  void formatKeysAreKeptUnparsedForTheFormats() {
    ReadOptions options =
        ReadOptions.fromProperties(
            Map.of(
                "orc.read.natural-read-size", "not a size: the ORC format checks it",
                "parquet.read.split-row-groups", "false",
                "prefetch.parallelism", "3"));
    assertThat(options.formatProperties())
        .containsExactly(
            Map.entry("orc.read.natural-read-size", "not a size: the ORC format checks it"),
            Map.entry("parquet.read.split-row-groups", "false"));
    assertThat(options.properties()).containsKeys("prefetch.parallelism");
    assertThat(options.toBuilder().build().formatProperties())
        .isEqualTo(options.formatProperties());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "prefetch.parallelism|0",
        "prefetch.parallelism|many",
        "prefetch.parallelism|100000",
        "prefetch.queue-capacity|-1",
        "prefetch.enabled|yes",
        "prefetch.max-buffered-bytes|0",
        "prefetch.max-buffered-bytes|12 parsecs",
        "prefetch.max-buffered-bytes|99999999999999999999",
        "prefetch.min-read-bytes|-5",
        "read.batch-size|0",
        "read.columns|a,,b"
      })
  void invalidValuesAreRejectedNamingTheKey(String key, String value) {
    assertThatThrownBy(() -> ReadOptions.fromProperties(Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }

  @Test
  void unknownPrefetchKeysAreRejectedNamingTheKey() {
    assertThatThrownBy(() -> ReadOptions.fromProperties(Map.of("prefetch.paralellism", "4")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefetch.paralellism")
        .hasMessageContaining("prefetch.parallelism");
    assertThatThrownBy(() -> ReadOptions.fromProperties(Map.of("read.bach-size", "4")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("read.bach-size");
  }

  @Test
  void javaPropertiesAndHadoopConfigurationAreAccepted() {
    Properties properties = new Properties();
    properties.setProperty("prefetch.parallelism", "5");
    assertThat(ReadOptions.fromProperties(properties).parallelism()).isEqualTo(5);

    Configuration conf = new Configuration(false);
    conf.set("prefetch.queue-capacity", "7");
    conf.set("fs.defaultFS", "file:///");
    ReadOptions fromConf = ReadOptions.fromConfiguration(conf);
    assertThat(fromConf.queueCapacity()).isEqualTo(7);
    assertThat(fromConf.properties()).doesNotContainKey("fs.defaultFS");
  }

  @Test
  void rowRangesAreSortedAndMerged() {
    ReadOptions options =
        ReadOptions.builder()
            .rowRanges(
                List.of(
                    new RowRange(50, 60),
                    new RowRange(0, 10),
                    new RowRange(5, 20),
                    new RowRange(20, 25),
                    new RowRange(70, 70)))
            .build();
    assertThat(options.rowRanges()).containsExactly(new RowRange(0, 25), new RowRange(50, 60));
  }

  @Test
  void aBackwardsRowRangeIsRejected() {
    assertThatThrownBy(() -> new RowRange(10, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[10, 5)");
  }

  @Test
  void toBuilderKeepsEverySetting() {
    ReadOptions options =
        ReadOptions.builder()
            .batchSize(9)
            .parallelism(3)
            .columns("x")
            .filter("predicate")
            .property("parquet.x", "y")
            .build();
    ReadOptions copy = options.toBuilder().build();
    assertThat(copy.batchSize()).isEqualTo(9);
    assertThat(copy.parallelism()).isEqualTo(3);
    assertThat(copy.columns()).containsExactly("x");
    assertThat(copy.filter()).isEqualTo("predicate");
    assertThat(copy.properties()).containsEntry("parquet.x", "y");
  }
}
