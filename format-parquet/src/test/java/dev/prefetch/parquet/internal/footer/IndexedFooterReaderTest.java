package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.RowRange;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheValue;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.cache.MemoryCache;
import dev.prefetch.parquet.internal.thrift.CompactCursor;
import dev.prefetch.spi.ScanCounters;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexedFooterReaderTest {

  @TempDir static Path dir;
  private static org.apache.hadoop.fs.Path file;
  private static FileIdentity identity;

  private final AtomicInteger footerReads = new AtomicInteger();
  private final AtomicInteger fullParses = new AtomicInteger();
  private final ScanCounters counters = new ScanCounters();

  @BeforeAll
  static void writeFile() throws Exception {
    Path local = dir.resolve("eight.parquet");
    file =
        WideFiles.write(
            new org.apache.hadoop.fs.Path(local.toUri()),
            new WideFiles.Spec(30, 8, 20, true, false));
    identity =
        new FileIdentity(
            local.toUri(), Files.size(local), Files.getLastModifiedTime(local).toMillis());
  }

  private IndexedFooterReader reader(ScanCounters counters) {
    return new IndexedFooterReader(
        file.toString(),
        () -> {
          footerReads.incrementAndGet();
          return WideFiles.footerArray(file);
        },
        bytes -> {
          fullParses.incrementAndGet();
          return new ParquetMetadataConverter()
              .readParquetMetadata(
                  new ByteArrayInputStream(bytes), ParquetMetadataConverter.NO_FILTER);
        },
        counters);
  }

  private static RowGroupSelection rowGroups(String value) {
    return RowGroupSelection.of(Map.of(RowGroupSelection.ROW_GROUPS_PROPERTY, value), null);
  }

  @Test
  void coldOpenDecodesOnlyTheChosenRowGroupsAndCachesTheIndexBesideTheFooter() throws Exception {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16 << 20).build();

    ParquetMetadata metadata = reader(counters).read(cache, identity, rowGroups("5, 2"), null);

    assertThat(metadata.getBlocks()).extracting(BlockMetaData::getOrdinal).containsExactly(2, 5);
    assertThat(metadata.getBlocks())
        .extracting(BlockMetaData::getRowIndexOffset)
        .containsExactly(40L, 100L);
    assertThat(counters.get(IndexedFooterReader.ROW_GROUPS_DECODED)).isEqualTo(2);
    assertThat(counters.get(IndexedFooterReader.FOOTER_INDEX_BUILDS)).isEqualTo(1);
    assertThat(footerReads).hasValue(1);
    CacheValue footer = cache.getIfPresent(CacheKey.footer(identity));
    CacheValue index = cache.getIfPresent(IndexedFooterReader.indexKey(identity));
    assertThat(footer.length()).isEqualTo(WideFiles.footerArray(file).length);
    assertThat(index.length()).isPositive().isLessThan(footer.length() / 4);
    assertThat(cache.sizeInBytes()).isEqualTo(footer.weight() + index.weight());
  }

  @Test
  void warmOpenReadsNothingBuildsNoIndexAndDecodesOneRowGroup() throws Exception {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16 << 20).build();
    reader(new ScanCounters()).read(cache, identity, rowGroups("1"), null);
    footerReads.set(0);

    ParquetMetadata metadata = reader(counters).read(cache, identity, rowGroups("7"), null);

    assertThat(footerReads).hasValue(0);
    assertThat(counters.get(IndexedFooterReader.FOOTER_INDEX_BUILDS)).isZero();
    assertThat(counters.get(IndexedFooterReader.ROW_GROUPS_DECODED)).isEqualTo(1);
    assertThat(metadata.getBlocks()).hasSize(1);
    assertThat(metadata.getBlocks().get(0).getRowIndexOffset()).isEqualTo(140);
  }

  @Test
  void damagedCachedIndexIsRebuiltFromTheFooter() throws Exception {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16 << 20).build();
    cache.put(IndexedFooterReader.indexKey(identity), CacheValue.copyOf(new byte[] {1, 2, 3}));

    ParquetMetadata metadata = reader(counters).read(cache, identity, rowGroups("3"), null);

    assertThat(metadata.getBlocks().get(0).getOrdinal()).isEqualTo(3);
    assertThat(counters.get(IndexedFooterReader.FOOTER_INDEX_BUILDS)).isEqualTo(1);
    CacheValue rebuilt = cache.getIfPresent(IndexedFooterReader.indexKey(identity));
    assertThat(FooterIndexCodec.decode(rebuilt.buffer(), "cache").rowGroupCount()).isEqualTo(8);
  }

  @Test
  void withoutAnIdentityTheCacheIsBypassedAndCounted() throws Exception {
    MemoryCache cache = MemoryCache.builder().maximumBytes(16 << 20).build();

    reader(counters).read(cache, null, rowGroups("0"), null);

    assertThat(cache.stats().bypasses()).isEqualTo(1);
    assertThat(cache.sizeInBytes()).isZero();
    assertThat(counters.get(IndexedFooterReader.FOOTER_INDEX_BUILDS)).isEqualTo(1);
  }

  @Test
  void rowRangesAndProjectionNarrowWhatIsDecoded() throws Exception {
    RowGroupSelection selection =
        new RowGroupSelection(null, List.of(new RowRange(19, 21), new RowRange(150, 151)));
    List<String> leaves = new ArrayList<>();

    ParquetMetadata metadata =
        reader(counters)
            .read(
                null,
                null,
                selection,
                schema -> {
                  schema.getColumns().forEach(c -> leaves.add(String.join(".", c.getPath())));
                  return List.of(ColumnPath.get("c3"));
                });

    assertThat(leaves).hasSize(31);
    assertThat(metadata.getBlocks()).extracting(BlockMetaData::getOrdinal).containsExactly(0, 1, 7);
    for (BlockMetaData block : metadata.getBlocks()) {
      assertThat(block.getColumns())
          .extracting(ColumnChunkMetaData::getPath)
          .containsExactly(ColumnPath.get("c3"));
    }
    assertThat(counters.get(IndexedFooterReader.ROW_GROUPS_DECODED)).isEqualTo(3);
  }

  @Test
  void rowGroupOutsideTheFileIsAnErrorNamingTheProperty() {
    assertThatThrownBy(() -> reader(counters).read(null, null, rowGroups("8"), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parquet.read.row-groups asks for row group 8")
        .hasMessageContaining("has 8 row groups");
    assertThatThrownBy(() -> rowGroups("1,x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x' is not a row group number");
    assertThatThrownBy(() -> rowGroups("2,2")).hasMessageContaining("row group 2 is listed twice");
  }

  @Test
  void footerDeclaringEncryptionFallsBackToTheFullParseKeepingTheSelection() throws Exception {
    byte[] encrypted =
        CompactBytes.footerHead(1, 30, 2)
            .append(CompactBytes.rowGroup(10, 4, 0))
            .append(CompactBytes.rowGroup(20, 90, 1))
            .field(4, CompactCursor.STRUCT)
            .field(1, CompactCursor.STRUCT)
            .stop()
            .stop()
            .stop()
            .toByteArray();
    BlockMetaData first = new BlockMetaData();
    BlockMetaData second = new BlockMetaData();
    ParquetMetadata full =
        new ParquetMetadata(
            new FileMetaData(
                org.apache.parquet.schema.Types.buildMessage().named("m"), Map.of(), "x"),
            List.of(first, second));
    IndexedFooterReader reader =
        new IndexedFooterReader(
            "enc.parquet",
            () -> encrypted,
            bytes -> {
              assertThat(bytes).isEqualTo(encrypted);
              fullParses.incrementAndGet();
              return full;
            },
            counters);

    ParquetMetadata metadata = reader.read(null, null, rowGroups("1"), null);

    assertThat(fullParses).hasValue(1);
    assertThat(metadata.getBlocks()).containsExactly(second);
    assertThat(counters.get(IndexedFooterReader.FOOTER_INDEX_FALLBACK)).isEqualTo(1);
    assertThat(counters.get(IndexedFooterReader.ROW_GROUPS_DECODED)).isEqualTo(2);
  }
}
