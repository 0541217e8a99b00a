package dev.prefetch.parquet.internal.footer;

import dev.prefetch.DataFile;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.Objects;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;

/**
 * Loads the footer a plan works from, on one of two paths.
 *
 * <p>When the read wants every row group, {@link FooterReader} reads (or takes from the cache) the
 * footer bytes and parquet-hadoop parses all of them. When it wants only some ({@link
 * RowGroupSelection#selective()}: chosen row groups, row ranges, a split of the file), {@link
 * IndexedFooterReader} decodes just those through the footer index, and without a filter just the
 * projected columns' chunks of them too (a filter may read statistics of other columns). A split
 * reads the row groups whose midpoint it holds (parquet-hadoop's rule), found from the index, so a
 * split of a wide file decodes only its own row groups.
 */
public final class FooterLoader {

  private FooterLoader() {}

  /**
   * The footer of {@code file}.
   *
   * @param input the file's bytes, counted
   * @param length the file's length
   * @param cache the metadata cache, or null
   * @param identity the file's identity for the cache, or null
   * @param check the file's identity after a footer read for the cache, or null (see {@link
   *     FooterReader#readVerified})
   * @param selection the row groups the read wants
   * @param projection the column paths to decode on the selective path, or null for every column
   */
  public static LoadedFooter load(
      DataFile file,
      InputFile input,
      long length,
      Cache cache,
      FileIdentity identity,
      FileVersionCheck check,
      RowGroupSelection selection,
      IndexedFooterReader.ProjectionResolver projection,
      ScanCounters counters)
      throws IOException {
    FooterReader footerReader = new FooterReader(file, input, length, counters);
    if (!selection.selective()) {
      ParquetMetadata footer = footerReader.parse(footerReader.footerBytes(cache, identity, check));
      counters.add(IndexedFooterReader.ROW_GROUPS_DECODED, footer.getBlocks().size());
      return new LoadedFooter(footer, null);
    }
    IndexedFooterReader indexed =
        new IndexedFooterReader(
            file.toString(),
            () -> footerReader.readVerified(identity, check),
            footerReader::parse,
            counters);
    ParquetMetadata footer = indexed.read(cache, identity, selection, projection);
    return new LoadedFooter(footer, indexed.rowGroups());
  }

  /**
   * A footer as loaded: all the file's row groups, or some of them.
   *
   * <p>On the selective path the footer's blocks are the chosen row groups only, so a block's
   * position in the footer is not its row group number in the file, and its first row comes from
   * its row index offset rather than from counting the blocks before it.
   */
  public static final class LoadedFooter {
    private final ParquetMetadata footer;
    private final int[] fileRowGroups;

    private LoadedFooter(ParquetMetadata footer, int[] fileRowGroups) {
      this.footer = Objects.requireNonNull(footer, "footer is null");
      this.fileRowGroups = fileRowGroups == null ? null : fileRowGroups.clone();
    }

    public ParquetMetadata footer() {
      return footer;
    }

    /** Whether the footer holds only some of the file's row groups. */
    public boolean partial() {
      return fileRowGroups != null;
    }

    /** The file's row group number of block {@code ordinal} of the footer. */
    public int fileRowGroup(int ordinal) {
      return fileRowGroups == null ? ordinal : fileRowGroups[ordinal];
    }
  }
}
