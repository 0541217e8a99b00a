package dev.prefetch.parquet;

import dev.prefetch.DataFile;
import dev.prefetch.parquet.internal.footer.FooterIndex;
import dev.prefetch.parquet.internal.footer.FooterReader;
import dev.prefetch.parquet.internal.footer.RowGroupSelection;
import dev.prefetch.parquet.internal.footer.SelectiveFooterDecoder;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * A Parquet file's footer for tools that show what is in a file: all of it, or only some row
 * groups, decoded through the footer index so that a very wide file costs one pass over its footer
 * bytes and the decoding of the row groups asked for.
 *
 * <p>Every length read from the file is checked against its size; a damaged footer is a {@link
 * dev.prefetch.CorruptFileException} naming the file.
 */
public final class ParquetFooters {

  private ParquetFooters() {}

  /**
   * A footer narrowed to some row groups.
   *
   * @param metadata the file metadata with only the chosen row groups' blocks, in file order
   * @param rowGroups the footer positions of those blocks (block {@code i} is row group {@code
   *     rowGroups[i]} of the file)
   * @param rowGroupCount row groups in the file
   * @param rows rows in the file
   */
  public record Selection(ParquetMetadata metadata, int[] rowGroups, int rowGroupCount, long rows) {

    public Selection {
      Objects.requireNonNull(metadata, "metadata is null");
      rowGroups = rowGroups.clone();
    }

    @Override
    public int[] rowGroups() {
      return rowGroups.clone();
    }
  }

  /**
   * The whole footer of {@code path}.
   *
   * @throws java.io.FileNotFoundException when the file does not exist
   * @throws dev.prefetch.CorruptFileException when the file is not Parquet or its footer is
   *     truncated or corrupt
   * @throws IOException when the file system fails
   */
  public static ParquetMetadata read(Path path, Configuration conf) throws IOException {
    FooterReader reader = footerReader(path, conf);
    return reader.parse(reader.footerBytes(null, null));
  }

  /**
   * The footer of {@code path} with only {@code rowGroups} (0-based footer positions, any order,
   * duplicates ignored) decoded.
   *
   * @throws IllegalArgumentException when a row group does not exist (naming the file and the
   *     file's row group count)
   */
  public static Selection readRowGroups(Path path, Configuration conf, List<Integer> rowGroups)
      throws IOException {
    int[] chosen = rowGroups.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
    for (int g : chosen) {
      if (g < 0) {
        throw new IllegalArgumentException("row groups start at 0: " + g);
      }
    }
    FooterReader reader = footerReader(path, conf);
    byte[] bytes = reader.footerBytes(null, null);
    String file = path.toString();
    FooterIndex index = FooterIndex.build(ByteBuffer.wrap(bytes), file);
    if (index.hasEncryption()) {
      ParquetMetadata full = reader.parse(bytes);
      List<org.apache.parquet.hadoop.metadata.BlockMetaData> blocks = new java.util.ArrayList<>();
      for (int g : chosen) {
        check(g, full.getBlocks().size(), file);
        blocks.add(full.getBlocks().get(g));
      }
      long rows = 0;
      for (var block : full.getBlocks()) {
        rows += block.getRowCount();
      }
      return new Selection(
          new ParquetMetadata(full.getFileMetaData(), blocks),
          chosen,
          full.getBlocks().size(),
          rows);
    }
    for (int g : chosen) {
      check(g, index.rowGroupCount(), file);
    }
    int[] resolved = new RowGroupSelection(chosen, null).resolve(index, file);
    ParquetMetadata metadata =
        new SelectiveFooterDecoder(ByteBuffer.wrap(bytes), index, file).decode(resolved, null);
    return new Selection(metadata, resolved, index.rowGroupCount(), index.numRows());
  }

  private static void check(int rowGroup, int count, String file) {
    if (rowGroup >= count) {
      throw new IllegalArgumentException(
          file
              + ": row group "
              + rowGroup
              + " does not exist; "
              + "the file has "
              + count
              + " row groups"
              + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
    }
  }

  private static FooterReader footerReader(Path path, Configuration conf) throws IOException {
    FileStatus status = path.getFileSystem(conf).getFileStatus(path);
    return new FooterReader(
        DataFile.of(path),
        HadoopInputFile.fromStatus(status, conf),
        status.getLen(),
        new ScanCounters());
  }
}
