package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheKind;
import dev.prefetch.cache.CacheValue;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Opens a footer through the {@link FooterIndex} when a read wants only some row groups: gets the
 * footer bytes and the serialized index (from the metadata cache when there is one, else from the
 * file and one indexing pass), then decodes the schema and only the chosen row groups.
 *
 * <p>Cache layout: the footer bytes under {@link CacheKey#footer} (the same entry a full parse
 * uses, so both paths share it) and the encoded index beside them under {@link #indexKey}; both
 * weigh their byte length. A warm open therefore reads nothing from the file, copies no footer
 * bytes (it reads the cached value's read-only buffer in place), and decodes the schema plus the
 * chosen row groups.
 *
 * <p>Footers declaring encryption are handed to the full parse and counted under {@link
 * #FOOTER_INDEX_FALLBACK}; a damaged cached index is dropped and rebuilt.
 */
public final class IndexedFooterReader {

  /** Counter: {@code RowGroup} structs decoded from a footer. */
  public static final String ROW_GROUPS_DECODED = "rowGroupsDecoded";

  /** Counter: opens that wanted the footer index but used the full parse (encrypted footer). */
  public static final String FOOTER_INDEX_FALLBACK = "footerIndexFallback";

  /** Counter: footer indexes built by walking footer bytes (a cached index is not one). */
  public static final String FOOTER_INDEX_BUILDS = "footerIndexBuilds";

  /** Reads the footer's FileMetaData bytes from the file (no cache involved). */
  @FunctionalInterface
  public interface FooterSource {
    byte[] read() throws IOException;
  }

  /** parquet-hadoop's full parse of footer bytes, for the fallback. */
  @FunctionalInterface
  public interface FullParser {
    ParquetMetadata parse(byte[] footer) throws IOException;
  }

  /** Chooses the column paths to decode once the schema is known; null means every column. */
  @FunctionalInterface
  public interface ProjectionResolver {
    Collection<ColumnPath> paths(MessageType schema) throws IOException;
  }

  private final String file;
  private final FooterSource source;
  private final FullParser fullParser;
  private final ScanCounters counters;
  private int[] rowGroups;

  public IndexedFooterReader(
      String file, FooterSource source, FullParser fullParser, ScanCounters counters) {
    this.file = Objects.requireNonNull(file, "file is null");
    this.source = Objects.requireNonNull(source, "source is null");
    this.fullParser = Objects.requireNonNull(fullParser, "fullParser is null");
    this.counters = Objects.requireNonNull(counters, "counters is null");
  }

  /**
   * The key of a file's encoded footer index: position = the file's length, length 0. No real
   * metadata region is empty and starts at the end of the file, so it cannot meet another entry.
   */
  public static CacheKey indexKey(FileIdentity identity) {
    return new CacheKey(CacheKind.DATA_FILE_FOOTER, identity, identity.length(), 0);
  }

  /**
   * Metadata holding only the row groups of {@code selection} (with their real first rows and
   * ordinals) and, when {@code projection} gives paths, only those columns' chunks.
   *
   * @param cache the metadata cache, or null
   * @param identity the file's identity, or null (then the cache is bypassed)
   */
  public ParquetMetadata read(
      Cache cache,
      FileIdentity identity,
      RowGroupSelection selection,
      ProjectionResolver projection)
      throws IOException {
    ByteBuffer footer;
    boolean cached = cache != null && identity != null;
    if (cached) {
      // on a miss, index the array just read rather than the cache's read-only copy of it
      byte[][] loaded = new byte[1][];
      CacheValue value =
          cache.get(
              CacheKey.footer(identity),
              key -> {
                loaded[0] = source.read();
                return CacheValue.copyOf(loaded[0]);
              });
      footer = loaded[0] != null ? ByteBuffer.wrap(loaded[0]) : value.buffer();
    } else {
      if (cache != null) {
        cache.recordBypass();
        CacheBypassLog.bypassed(file);
      }
      footer = ByteBuffer.wrap(source.read());
    }
    FooterIndex index = cached ? cachedIndex(cache, identity, footer) : build(footer);
    if (index.hasEncryption()) {
      counters.increment(FOOTER_INDEX_FALLBACK);
      byte[] bytes = new byte[footer.remaining()];
      footer.duplicate().get(bytes);
      ParquetMetadata full = fullParser.parse(bytes);
      counters.add(ROW_GROUPS_DECODED, full.getBlocks().size());
      rowGroups = selection.resolve(index, file);
      if (selection.split() != null) {
        rowGroups = keepSplit(full, rowGroups, selection.split());
      }
      return keepOnly(full, rowGroups);
    }
    SelectiveFooterDecoder decoder = new SelectiveFooterDecoder(footer, index, file);
    int[] chosen = selection.resolve(index, file);
    if (selection.split() != null) {
      chosen = MidpointSplit.keep(chosen, selection.split(), decoder);
    }
    rowGroups = chosen;
    Collection<ColumnPath> paths = projection == null ? null : projection.paths(decoder.schema());
    ParquetMetadata metadata = decoder.decode(chosen, paths);
    counters.add(ROW_GROUPS_DECODED, chosen.length);
    return metadata;
  }

  /**
   * The footer positions of the row groups the last {@link #read} returned, in the order of its
   * blocks (a block's position in the returned list is not its row group number in the file).
   */
  public int[] rowGroups() {
    if (rowGroups == null) {
      throw new IllegalStateException("no footer read yet");
    }
    return rowGroups.clone();
  }

  /** The row groups of {@code chosen} whose midpoint (from fully parsed blocks) is in the split. */
  private static int[] keepSplit(
      ParquetMetadata full, int[] chosen, RowGroupSelection.Split split) {
    int[] kept = new int[chosen.length];
    int n = 0;
    for (int rowGroup : chosen) {
      if (rowGroup < full.getBlocks().size()) {
        BlockMetaData block = full.getBlocks().get(rowGroup);
        if (!split.contains(block.getStartingPos() + block.getCompressedSize() / 2)) {
          continue;
        }
      }
      kept[n++] = rowGroup; // one past the blocks: keepOnly names the corruption
    }
    return java.util.Arrays.copyOf(kept, n);
  }

  /** The full parse's metadata narrowed to the chosen row groups, so the selection still holds. */
  private ParquetMetadata keepOnly(ParquetMetadata full, int[] chosen) throws CorruptFileException {
    List<BlockMetaData> blocks = full.getBlocks();
    if (chosen.length > 0 && chosen[chosen.length - 1] >= blocks.size()) {
      throw new CorruptFileException(
          file
              + ": corrupt Parquet footer: the full parse found "
              + blocks.size()
              + " row groups, fewer than the footer index");
    }
    if (chosen.length == blocks.size()) {
      return full; // ascending and distinct: every row group
    }
    List<BlockMetaData> kept = new ArrayList<>(chosen.length);
    for (int rowGroup : chosen) {
      kept.add(blocks.get(rowGroup));
    }
    return new ParquetMetadata(full.getFileMetaData(), kept);
  }

  private FooterIndex cachedIndex(Cache cache, FileIdentity identity, ByteBuffer footer)
      throws IOException {
    CacheKey key = indexKey(identity);
    CacheValue value =
        cache.get(key, k -> CacheValue.copyOf(FooterIndexCodec.encode(build(footer))));
    try {
      FooterIndex index = FooterIndexCodec.decode(value.buffer(), file + " (cached footer index)");
      if (index.footerLength() == footer.remaining()) {
        return index;
      }
    } catch (CorruptFileException damaged) {
      // fall through: an index that does not decode is rebuilt from the footer
    }
    cache.invalidate(key);
    FooterIndex rebuilt = build(footer);
    cache.put(key, CacheValue.copyOf(FooterIndexCodec.encode(rebuilt)));
    return rebuilt;
  }

  private FooterIndex build(ByteBuffer footer) throws CorruptFileException {
    counters.increment(FOOTER_INDEX_BUILDS);
    return FooterIndex.build(footer.duplicate(), file);
  }
}
