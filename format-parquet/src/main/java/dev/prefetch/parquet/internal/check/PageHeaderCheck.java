package dev.prefetch.parquet.internal.check;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import java.nio.ByteBuffer;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

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
 * Only the header's sizes and counts are read ({@link PageHeaderFields}), with every length checked
 * against the bytes left and nothing allocated from what the header says; parquet-hadoop then
 * parses the same bytes in full. A header that does not parse is left to parquet-hadoop, which
 * fails on it with its own error.
 *
 * <p>Stateless; thread-safe.
 */
public final class PageHeaderCheck {

  /**
   * Bytes a chunk's last page may run past the chunk: old parquet-mr writers left a dictionary page
   * header (13 to 19 bytes in practice) out of the chunk's length, and parquet-hadoop reads the
   * rest from the file. Anything longer is a corrupt size.
   */
  static final int OLD_WRITER_SLACK_BYTES = 256;

  /**
   * Bytes a header is first read from: headers without statistics take 20 to 40, parquet-java's
   * truncated statistics a few hundred more; a longer header is read again from a larger window.
   */
  private static final int FIRST_HEADER_WINDOW = 512;

  /**
   * A span of file bytes holding whole pages of one column chunk: the chunk, or for a read of
   * selected pages one page (or the dictionary page) as the offset index places it.
   *
   * @param start first byte
   * @param end byte after the last
   * @param chunk the chunk's metadata
   * @param where the row group (or slice of it) read, for messages
   */
  public record Span(long start, long end, ColumnChunkMetaData chunk, String where) {

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
  public static long maxExpansion(CompressionCodecName codec) {
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

  /**
   * The bytes of a span, by offset from its start; a header is read from a window of them, so that
   * a span split over several read buffers is not copied whole.
   */
  interface SpanBytes {
    /** {@code length} bytes at {@code offset}: a view where one buffer holds them, else a copy. */
    ByteBuffer window(long offset, int length);

    /** The bytes of one buffer that holds the whole span. */
    static SpanBytes of(ByteBuffer span) {
      return (offset, length) -> span.slice(span.position() + (int) offset, length);
    }
  }

  /** Checks the pages of {@code span}, whose bytes {@code bytes} holds from its start. */
  static void check(DataFile file, Span span, SpanBytes bytes) throws CorruptFileException {
    long length = span.length();
    String name = file.toString(); // once per span: only a corrupt header's message needs it
    long position = 0;
    while (position < length) {
      long left = length - position;
      PageHeaderFields header = read(name, bytes, position, left);
      if (header == null) {
        return; // parquet-hadoop parses the same bytes and fails with its own error
      }
      long afterHeader = left - header.length();
      checkPage(file, span, header, span.start() + position, afterHeader);
      long size = header.compressedSize();
      if (size > afterHeader) {
        return; // an old writer's last page (checked above to be within the slack)
      }
      position += header.length() + size;
    }
  }

  /**
   * The header at {@code position}, read from a window of the bytes that grows while the header
   * runs past it (large statistics); null when no window up to the span's end holds one.
   */
  private static PageHeaderFields read(String file, SpanBytes bytes, long position, long left) {
    int window = (int) Math.min(left, FIRST_HEADER_WINDOW);
    while (true) {
      PageHeaderFields header = PageHeaderFields.read(bytes.window(position, window), file);
      if (header != null || window == left || window == Integer.MAX_VALUE) {
        return header;
      }
      window = (int) Math.min(Math.min(left, Integer.MAX_VALUE), (long) window * 16);
    }
  }

  private static void checkPage(
      DataFile file, Span span, PageHeaderFields header, long offset, long left)
      throws CorruptFileException {
    ColumnChunkMetaData chunk = span.chunk();
    long compressed = header.compressedSize();
    long uncompressed = header.uncompressedSize();
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
    long v1Values = header.v1Values();
    if (v1Values != PageHeaderFields.ABSENT && (v1Values < 0 || v1Values > chunkValues)) {
      throw corrupt(
          file, span, offset, "it claims " + v1Values + " values, its chunk has " + chunkValues);
    }
    PageHeaderFields.V2 v2 = header.v2();
    if (v2 != null) {
      long values = v2.values();
      if (values < 0
          || values > chunkValues
          || v2.nulls() < 0
          || v2.nulls() > values
          || v2.rows() < 0
          || v2.rows() > values) {
        throw corrupt(
            file,
            span,
            offset,
            "it claims "
                + values
                + " values, "
                + v2.nulls()
                + " nulls and "
                + v2.rows()
                + " rows, its chunk has "
                + chunkValues
                + " values");
      }
      long levels = v2.repetitionLevelsLength() + v2.definitionLevelsLength();
      if (v2.repetitionLevelsLength() < 0
          || v2.definitionLevelsLength() < 0
          || levels > compressed) {
        throw corrupt(
            file,
            span,
            offset,
            "its levels claim "
                + v2.repetitionLevelsLength()
                + " + "
                + v2.definitionLevelsLength()
                + " bytes of its "
                + compressed);
      }
    }
    long dictionaryValues = header.dictionaryValues();
    if (dictionaryValues != PageHeaderFields.ABSENT) {
      if (dictionaryValues < 0 || dictionaryValues > uncompressed * 8 + 1) {
        throw corrupt(
            file,
            span,
            offset,
            "its dictionary claims " + dictionaryValues + " entries in " + uncompressed + " bytes");
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
