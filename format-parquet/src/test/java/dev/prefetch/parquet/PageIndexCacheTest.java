package dev.prefetch.parquet;

import static org.apache.parquet.filter2.predicate.FilterApi.eq;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.cache.CacheStats;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Column and offset indexes through the metadata cache, and parquet.* settings passed on. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(60)
class PageIndexCacheTest {

  @TempDir Path dir;

  private Path file() throws IOException {
    SelectionTest.dir = dir;
    return ParquetTestFiles.write(
        dir.resolve("indexed.parquet"),
        SelectionTest.SCHEMA,
        5000,
        ParquetTestFiles.WriteSpec.defaults()
            .codec(CompressionCodecName.UNCOMPRESSED)
            .dictionary(false)
            .pageRowLimit(100)
            .rowGroupBytes(1 << 30),
        SelectionTest::fill);
  }

  private static List<Long> rows(
      Path file, ReadOptions options, ReadContext context, long[] footerReads) throws IOException {
    List<Long> rows = new ArrayList<>();
    try (BatchReader reader = Readers.open(file, options, context)) {
      for (var batch = reader.next(); batch != null; batch = reader.next()) {
        for (int r = 0; r < batch.rowCount(); r++) {
          rows.add(batch.firstRow() + r);
        }
      }
      footerReads[0] = reader.metrics().counter(ScanCounters.FOOTER_READS);
    }
    return rows;
  }

  @Test
  void aSecondFilteredOpenTakesFooterAndPageIndexesFromTheCache() throws IOException {
    Path file = file();
    MemoryCache cache = MemoryCache.builder().maximumBytes(8 << 20).build();
    ReadOptions options =
        ReadOptions.builder()
            .filter(eq(longColumn("id"), 4321L))
            .parallelism(2)
            .minReadBytes(0)
            .build();
    long[] footerReads = new long[1];
    try (ReadContext context = ReadContext.builder().cache(cache).build()) {
      List<Long> first = rows(file, options, context, footerReads);
      assertThat(footerReads[0]).isEqualTo(1);
      CacheStats afterFirst = cache.stats();
      assertThat(afterFirst.misses()).isGreaterThanOrEqualTo(2); // the footer and an index
      List<Long> second = rows(file, options, context, footerReads);
      CacheStats delta = cache.stats().minus(afterFirst);
      assertThat(second).isEqualTo(first).contains(4321L).hasSizeLessThanOrEqualTo(100);
      assertThat(footerReads[0]).isZero();
      assertThat(delta.misses()).isZero();
      assertThat(delta.hits()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void parquetPropertiesReachTheLibrary() throws IOException {
    Path file = file();
    long[] footerReads = new long[1];
    try (ReadContext context = ReadContext.defaults()) {
      ReadOptions.Builder options =
          ReadOptions.builder().filter(eq(longColumn("id"), 4321L)).minReadBytes(0);
      assertThat(rows(file, options.build(), context, footerReads)).hasSizeLessThanOrEqualTo(100);
      // With statistics, dictionary, bloom and column-index filtering switched off, nothing is
      // pruned.
      options
          .property("parquet.filter.statistics.enabled", "false")
          .property("parquet.filter.dictionary.enabled", "false")
          .property("parquet.filter.bloom.enabled", "false")
          .property("parquet.filter.columnindex.enabled", "false");
      assertThat(rows(file, options.build(), context, footerReads)).hasSize(5000);
    }
  }
}
