package dev.prefetch.parquet.testing;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * The raw page headers of a file, as written (parquet-hadoop's page readers hand out pages already
 * decompressed), so that a test can check that a file holds what it means to test.
 */
public final class PageHeaders {

  private PageHeaders() {}

  /** One page of a column chunk: its column path, header and the header's file position. */
  public record Page(
      String column,
      PageHeader header,
      long headerOffset,
      int headerLength,
      boolean compressedChunk) {

    /** A DataPage V2 whose compressed data section (after the levels) is 0 bytes. */
    public boolean isV2WithEmptyCompressedData() {
      if (header.getData_page_header_v2() == null) {
        return false;
      }
      var v2 = header.getData_page_header_v2();
      return v2.isIs_compressed()
          && header.getCompressed_page_size()
                  - v2.getDefinition_levels_byte_length()
                  - v2.getRepetition_levels_byte_length()
              == 0;
    }
  }

  /**
   * Marks every DataPage V2 without data in a compressed column chunk as compressed, as older
   * parquet-java writers did (parquet-java 1.18 marks such a page uncompressed). The flag of a
   * Thrift compact boolean lives in its field header, so each header keeps its length and the file
   * is patched in place. Returns the pages patched.
   */
  public static int markEmptyV2DataCompressed(java.nio.file.Path file) throws IOException {
    int patched = 0;
    try (java.io.RandomAccessFile out = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      for (Page page : of(file)) {
        var v2 = page.header().getData_page_header_v2();
        if (v2 == null
            || v2.isIs_compressed()
            || !page.compressedChunk()
            || page.header().getCompressed_page_size()
                != v2.getDefinition_levels_byte_length() + v2.getRepetition_levels_byte_length()) {
          continue;
        }
        PageHeader header = page.header().deepCopy();
        header.getData_page_header_v2().setIs_compressed(true);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Util.writePageHeader(header, bytes);
        if (bytes.size() != page.headerLength()) {
          throw new IllegalStateException(
              "patched header of " + bytes.size() + " bytes, was " + page.headerLength());
        }
        out.seek(page.headerOffset());
        out.write(bytes.toByteArray());
        patched++;
      }
    }
    java.nio.file.Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    return patched;
  }

  /** Every page header of every column chunk, in file order. */
  public static List<Page> of(java.nio.file.Path file) throws IOException {
    Configuration conf = new Configuration();
    Path path = new Path(file.toUri());
    List<Page> pages = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf));
        FSDataInputStream in = FileSystem.getLocal(conf).open(path)) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          long pos = chunk.getStartingPos();
          long end = pos + chunk.getTotalSize();
          while (pos < end) {
            in.seek(pos);
            PageHeader header = Util.readPageHeader((InputStream) in);
            int headerLength = Math.toIntExact(in.getPos() - pos);
            pages.add(
                new Page(
                    chunk.getPath().toDotString(),
                    header,
                    pos,
                    headerLength,
                    chunk.getCodec() != CompressionCodecName.UNCOMPRESSED));
            pos = in.getPos() + header.getCompressed_page_size();
          }
        }
      }
    }
    return pages;
  }
}
