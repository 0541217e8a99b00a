package dev.prefetch.parquet.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import java.io.IOException;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import shaded.parquet.org.apache.thrift.TConfiguration;
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport;

/**
 * Checks the page headers of a column chunk's bytes before parquet-hadoop parses them and allocates
 * from what they say.
 *
 * <p>parquet-hadoop reads a page's {@code compressed_page_size} bytes from the chunk; when they run
 * past the last chunk of a read, it allocates the missing part as one heap buffer and reads it from
 * the file (a workaround for old writers that undercounted a chunk by a dictionary page header), so
 * a corrupt size asks for up to 2 GiB before a byte is read. Its decompressors then allocate {@code
 * uncompressed_page_size} bytes, and the decoders size arrays by the page's value counts. Every one
 * of those is checked here, against the bytes of the chunk the page sits in, the chunk's metadata
 * and the most its codec can expand ({@link #maxExpansion}):
 *
 * <ul>
 *   <li>sizes are not negative, and a page's bytes end inside its span (the chunk, or the pages a
 *       filtered read fetches), but for the few bytes old writers left out at a chunk's end;
 *   <li>the uncompressed size is at most the compressed size times the codec's expansion bound, and
 *       at most the chunk's total uncompressed size;
 *   <li>value counts are not negative and at most the chunk's; a v2 page's null and row counts at
 *       most its value count, and its level lengths inside its bytes.
 * </ul>
 *
 * The header itself is parsed with a message limit of the bytes left, so that a corrupt string
 * length in its statistics cannot make the parser allocate more than the chunk holds (parquet-
 * hadoop then parses the same bytes). A header that does not parse is left to parquet-hadoop, which
 * fails on it with its own error.
 *
 * <p>Stateless; thread-safe.
 */
final class PageHeaderCheck {

  /**
   * Bytes a chunk's last page may run past the chunk: old parquet-mr writers left a dictionary page
   * header (13 to 19 bytes in practice) out of the chunk's length, and parquet-hadoop reads the
   * rest from the file. Anything longer is a corrupt size.
   */
  static final int OLD_WRITER_SLACK_BYTES = 256;

  /** The deepest a page header's Thrift structs nest (statistics inside a data page header). */
  private static final int MAX_DEPTH = 16;

  /**
   * A span of file bytes holding whole pages of one column chunk: the chunk, or for a read of
   * selected pages one page (or the dictionary page) as the offset index places it.
   *
   * @param start first byte
   * @param end byte after the last
   * @param chunk the chunk's metadata
   * @param where the row group (or slice of it) read, for messages
   */
  record Span(long start, long end, ColumnChunkMetaData chunk, String where) {

    /** Whether the span ends where its chunk does (where old writers' slack may follow). */
    boolean atChunkEnd() {
      return end == chunk.getStartingPos() + chunk.getTotalSize();
    }

    long length() {
      return end - start;
    }
  }

  private PageHeaderCheck() {}

  /**
   * The most bytes one compressed byte of {@code codec} can stand for: the format's own bound
   * (deflate 1032:1, snappy's 64-byte copies in 2 or 3 bytes, the 255-byte run extensions of LZ4
   * and LZO) or, for zstd and brotli whose run-length blocks expand further, a 128 KiB block from a
   * few bytes.
   */
  static long maxExpansion(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
        return 1;
      case SNAPPY:
        return 32;
      case GZIP:
        return 1032;
      case LZO:
      case LZ4:
      case LZ4_RAW:
        return 256;
      default:
        return 1 << 15;
    }
  }

  /** Checks the pages of {@code span}, whose bytes {@code bytes} holds from its start. */
  static void check(DataFile file, Span span, ByteBufferInputStream bytes)
      throws CorruptFileException {
    ColumnChunkMetaData chunk = span.chunk();
    long length = span.length();
    long position = 0;
    while (position < length) {
      PageHeader header;
      try {
        header = read(bytes, length - position);
      } catch (IOException | TException | RuntimeException e) {
        return; // parquet-hadoop parses the same bytes and fails with its own error
      }
      long headerLength = bytes.position() - position;
      long left = length - position - headerLength;
      checkPage(file, span, header, span.start() + position, left);
      long size = header.getCompressed_page_size();
      if (size > left) {
        return; // an old writer's last page (checked above to be within the slack)
      }
      try {
        bytes.skipFully(size);
      } catch (IOException e) {
        return;
      }
      position = bytes.position();
    }
  }

  private static PageHeader read(ByteBufferInputStream bytes, long left)
      throws IOException, TException {
    int limit = (int) Math.min(Integer.MAX_VALUE, Math.max(left, 1));
    PageHeader header = new PageHeader();
    header.read(
        new TCompactProtocol(
            new TIOStreamTransport(new TConfiguration(limit, limit, MAX_DEPTH), bytes)));
    return header;
  }

  private static void checkPage(DataFile file, Span span, PageHeader header, long offset, long left)
      throws CorruptFileException {
    ColumnChunkMetaData chunk = span.chunk();
    long compressed = header.getCompressed_page_size();
    long uncompressed = header.getUncompressed_page_size();
    long slack = span.atChunkEnd() ? OLD_WRITER_SLACK_BYTES : 0;
    if (compressed < 0 || compressed > left + slack) {
      throw corrupt(
          file,
          span,
          offset,
          "its header claims " + compressed + " bytes, " + left + " are left of its column chunk");
    }
    long expansion = maxExpansion(chunk.getCodec());
    long chunkUncompressed = chunk.getTotalUncompressedSize();
    if (uncompressed < 0
        || uncompressed > compressed * expansion + 64
        || (chunkUncompressed > 0 && uncompressed > chunkUncompressed)) {
      throw corrupt(
          file,
          span,
          offset,
          "its header claims "
              + uncompressed
              + " uncompressed bytes from "
              + compressed
              + " "
              + chunk.getCodec()
              + " bytes (at most "
              + expansion
              + " times as many), in a chunk of "
              + chunkUncompressed
              + " uncompressed bytes");
    }
    long chunkValues = chunk.getValueCount();
    if (header.isSetData_page_header()) {
      DataPageHeader v1 = header.getData_page_header();
      if (v1.getNum_values() < 0 || v1.getNum_values() > chunkValues) {
        throw corrupt(
            file,
            span,
            offset,
            "it claims " + v1.getNum_values() + " values, its chunk has " + chunkValues);
      }
    }
    if (header.isSetData_page_header_v2()) {
      DataPageHeaderV2 v2 = header.getData_page_header_v2();
      long values = v2.getNum_values();
      if (values < 0
          || values > chunkValues
          || v2.getNum_nulls() < 0
          || v2.getNum_nulls() > values
          || v2.getNum_rows() < 0
          || v2.getNum_rows() > values) {
        throw corrupt(
            file,
            span,
            offset,
            "it claims "
                + values
                + " values, "
                + v2.getNum_nulls()
                + " nulls and "
                + v2.getNum_rows()
                + " rows, its chunk has "
                + chunkValues
                + " values");
      }
      long levels =
          (long) v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
      if (v2.getRepetition_levels_byte_length() < 0
          || v2.getDefinition_levels_byte_length() < 0
          || levels > compressed) {
        throw corrupt(
            file,
            span,
            offset,
            "its levels claim "
                + v2.getRepetition_levels_byte_length()
                + " + "
                + v2.getDefinition_levels_byte_length()
                + " bytes of its "
                + compressed);
      }
    }
    if (header.isSetDictionary_page_header()) {
      DictionaryPageHeader dictionary = header.getDictionary_page_header();
      if (dictionary.getNum_values() < 0 || dictionary.getNum_values() > uncompressed * 8 + 1) {
        throw corrupt(
            file,
            span,
            offset,
            "its dictionary claims "
                + dictionary.getNum_values()
                + " entries in "
                + uncompressed
                + " bytes");
      }
    }
  }

  private static CorruptFileException corrupt(DataFile file, Span span, long offset, String what) {
    return new CorruptFileException(
        "Corrupt Parquet file "
            + file
            + ", "
            + span.where()
            + ", column '"
            + span.chunk().getPath().toDotString()
            + "': the page at offset "
            + offset
            + ": "
            + what);
  }
}
