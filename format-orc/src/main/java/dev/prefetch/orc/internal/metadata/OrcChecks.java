package dev.prefetch.orc.internal.metadata;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeInformation;

/**
 * The sizes an ORC file states about itself, checked before anything is allocated or planned from
 * them: the tail's section lengths against the file, the stripes' offsets, lengths and row counts
 * against the file, its row count and their row indexes, and a stripe footer's stream lengths and
 * dictionary sizes against the stripe. orc-core trusts all of these (it allocates a tail buffer,
 * stripe and stream buffers and dictionary arrays from them), so a corrupt size is stopped here
 * with a {@link CorruptFileException} naming the file, stripe and column.
 */
public final class OrcChecks {

  /** Bytes of the file read from its end in one request: the whole tail of most files. */
  public static final int TAIL_READ_BYTES = 16 << 10;

  /** orc-core's largest compression block: a chunk header holds 23 bits of length. */
  public static final int MAX_COMPRESSION_BLOCK_BYTES = (1 << 23) - 1;

  /**
   * The compression block size of a postscript without one, as orc-core and the C++ reader apply
   * it.
   */
  static final int DEFAULT_COMPRESSION_BLOCK_BYTES = 256 << 10;

  /** The largest array the JVM allocates. */
  public static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

  /** A row index entry takes at least two bytes (its tag and its length). */
  private static final int MIN_INDEX_ENTRY_BYTES = 2;

  private static final byte[] MAGIC = "ORC".getBytes(StandardCharsets.US_ASCII);

  private OrcChecks() {}

  /**
   * The most bytes one compressed byte of {@code kind} can stand for: the format's own bound
   * (deflate 1032:1, snappy's 64-byte copies in 2 or 3 bytes, LZ4's and LZO's 255-byte run
   * extensions) or, for zstd and brotli whose run-length blocks expand further, a 128 KiB block
   * from a few bytes.
   */
  public static long maxExpansion(CompressionKind kind) {
    switch (kind) {
      case NONE:
        return 1;
      case SNAPPY:
        return 32;
      case ZLIB:
        return 1032;
      case LZ4:
      case LZO:
        return 256;
      default:
        return 1 << 15;
    }
  }

  /**
   * Reads the tail of a file of {@code fileLength} bytes, {@code [stripe statistics, end)}, after
   * checking every length its postscript states against the file.
   */
  public static byte[] readTail(DataFile file, FSDataInputStream in, long fileLength)
      throws IOException {
    if (fileLength < MAGIC.length + 2) {
      throw new CorruptFileException(
          "Not an ORC file: " + file + " has only " + fileLength + " bytes");
    }
    int read = (int) Math.min(fileLength, TAIL_READ_BYTES);
    byte[] last = new byte[read];
    in.readFully(fileLength - read, last, 0, read);
    int psLength = last[read - 1] & 0xFF;
    if (psLength == 0 || psLength + 1 > read) {
      throw new CorruptFileException(
          "Not a valid ORC file: "
              + file
              + ": its postscript length "
              + psLength
              + " does not fit the file of "
              + fileLength
              + " bytes");
    }
    OrcProto.PostScript ps;
    try {
      ps = OrcProtos.postScript(last, read - 1 - psLength, psLength);
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "Not a valid ORC file: "
              + file
              + ": its postscript does"
              + " not parse: "
              + e.getMessage(),
          e);
    }
    if (!ps.hasMagic()) {
      byte[] head = new byte[MAGIC.length];
      in.readFully(0, head, 0, head.length);
      if (!java.util.Arrays.equals(head, MAGIC)) {
        throw new CorruptFileException("Not an ORC file: " + file + " has no ORC magic bytes");
      }
    } else if (!"ORC".equals(ps.getMagic())) {
      throw new CorruptFileException(
          "Not an ORC file: " + file + ": its postscript has magic '" + ps.getMagic() + "'");
    }
    long footer = ps.getFooterLength();
    long metadata = ps.getMetadataLength();
    long statistics = ps.getStripeStatisticsLength();
    long room = fileLength - MAGIC.length - 1 - psLength;
    if (footer <= 0
        || metadata < 0
        || statistics < 0
        || footer > room
        || metadata > room
        || statistics > room
        || footer + metadata + statistics > room) {
      throw new CorruptFileException(
          "Corrupt ORC file "
              + file
              + ": its postscript states a"
              + " footer of "
              + footer
              + ", metadata of "
              + metadata
              + " and stripe statistics of "
              + statistics
              + " bytes, more than the file of "
              + fileLength
              + " bytes holds");
    }
    long tail = 1 + psLength + footer + metadata + statistics;
    if (tail > MAX_ARRAY_BYTES) {
      throw new CorruptFileException(
          "ORC file " + file + " has a tail of " + tail + " bytes, larger than one array can hold");
    }
    compression(file, ps);
    long blockSize = ps.getCompressionBlockSize();
    // Absent (the first writers) or 0, the block size is the format's default: only a size the
    // chunk header cannot hold is corrupt, whatever the codec
    if (blockSize < 0 || blockSize > MAX_COMPRESSION_BLOCK_BYTES) {
      throw new CorruptFileException(
          "Corrupt ORC file "
              + file
              + ": compression block size "
              + Long.toUnsignedString(blockSize)
              + " is outside [0, "
              + MAX_COMPRESSION_BLOCK_BYTES
              + "] (0 or none: the default of "
              + DEFAULT_COMPRESSION_BLOCK_BYTES
              + ")");
    }
    byte[] bytes = new byte[(int) tail];
    if (tail <= read) {
      System.arraycopy(last, read - (int) tail, bytes, 0, (int) tail);
    } else {
      int head = (int) (tail - read);
      in.readFully(fileLength - tail, bytes, 0, head);
      System.arraycopy(last, 0, bytes, head, read);
    }
    return bytes;
  }

  private static CompressionKind compression(DataFile file, OrcProto.PostScript ps)
      throws CorruptFileException {
    try {
      return CompressionKind.valueOf(ps.getCompression().name());
    } catch (IllegalArgumentException e) {
      throw new CorruptFileException(
          "ORC file " + file + " uses an unknown compression " + ps.getCompression(), e);
    }
  }

  /**
   * Checks every stripe against the file: after the header and the stripe before, ending before the
   * tail, with a row count that fits the stripe's row index (so that no stripe plans more strides
   * than its index could describe). The stripes' row counts need not add up to the footer's: like
   * orc-core, the reader reads what the stripes hold (some writers leave the footer's count at 0).
   *
   * <p>The bound is where the tail starts, not the footer's content length: writers disagree on
   * that field (orc-core counts the 3-byte header in it, the C++ writer does not, Trino leaves it
   * out) and neither orc-core nor the C++ reader reads stripes by it.
   *
   * <p>A file without row index bytes in any stripe has no index whatever its footer's stride says
   * (orc-core before ORC-1362 kept the stride of a writer whose index was turned off): {@link
   * FileTail} reads its stride as 0, so its stripes are read whole. A stripe without an index in a
   * file whose other stripes have one is corrupt: orc-core cannot select its row groups (it fails
   * on the missing index), and no writer leaves one out.
   *
   * @param stripesEnd where the tail (stripe statistics, metadata, footer) starts
   */
  public static void checkStripes(
      DataFile file,
      List<StripeInformation> stripes,
      long fileRows,
      long rowIndexStride,
      long stripesEnd,
      CompressionKind kind)
      throws CorruptFileException {
    if (fileRows < 0) {
      throw new CorruptFileException("Corrupt ORC file " + file + ": " + fileRows + " rows");
    }
    if (rowIndexStride < 0) {
      throw new CorruptFileException(
          "Corrupt ORC file "
              + file
              + ": row index stride "
              + (rowIndexStride & 0xFFFFFFFFL)
              + " is beyond the format's 2^31 - 1");
    }
    long end = MAGIC.length;
    long rows = 0;
    for (int s = 0; s < stripes.size(); s++) {
      StripeInformation stripe = stripes.get(s);
      long offset = stripe.getOffset();
      long index = stripe.getIndexLength();
      long data = stripe.getDataLength();
      long footer = stripe.getFooterLength();
      String where = "Corrupt ORC file " + file + ", stripe " + s + ": ";
      if (offset < end
          || index < 0
          || data < 0
          || footer <= 0
          || offset > stripesEnd
          || index > stripesEnd
          || data > stripesEnd
          || footer > stripesEnd
          || index + data + footer > stripesEnd - offset) {
        throw new CorruptFileException(
            where
                + "it lies at "
                + offset
                + " with an index of "
                + index
                + ", data of "
                + data
                + " and a footer of "
                + footer
                + " bytes, outside the "
                + stripesEnd
                + " bytes before the file's tail (or overlapping the stripe before)");
      }
      end = offset + index + data + footer;
      long count = stripe.getNumberOfRows();
      if (count < 0 || count > Long.MAX_VALUE - rows) {
        throw new CorruptFileException(
            where + "it claims " + count + " rows after the " + rows + " of earlier stripes");
      }
      rows += count;
      if (rowIndexStride > 0 && count > 0 && index == 0) {
        throw new CorruptFileException(
            where
                + "it holds "
                + count
                + " rows but no row index, while the file's other stripes have one (a stride of "
                + rowIndexStride
                + ")");
      }
      if (rowIndexStride > 0 && count > 0) {
        long strides = (count - 1) / rowIndexStride + 1;
        long maxStrides =
            Math.min(Integer.MAX_VALUE, index / MIN_INDEX_ENTRY_BYTES * maxExpansion(kind));
        if (strides > maxStrides) {
          throw new CorruptFileException(
              where
                  + "it claims "
                  + count
                  + " rows, "
                  + strides
                  + " strides of "
                  + rowIndexStride
                  + ", more than its row index of "
                  + index
                  + " bytes can describe ("
                  + maxStrides
                  + ")");
        }
      }
    }
  }

  /**
   * Checks a stripe footer against its stripe: stream lengths that are not negative and add up to
   * no more than the stripe's index and data, and dictionaries no larger than their streams can
   * hold (orc-core allocates a dictionary's offsets from its stated size).
   */
  public static void checkStripeFooter(
      DataFile file,
      int stripeNumber,
      StripeInformation stripe,
      OrcProto.StripeFooter footer,
      CompressionKind kind)
      throws CorruptFileException {
    String where = "Corrupt ORC file " + file + ", stripe " + stripeNumber + ", ";
    long room = stripe.getIndexLength() + stripe.getDataLength();
    long total = 0;
    java.util.Map<Integer, Long> dictionaryBytes = new java.util.HashMap<>();
    for (OrcProto.Stream stream : footer.getStreamsList()) {
      long length = stream.getLength();
      if (length < 0 || length > room - total) {
        throw new CorruptFileException(
            where
                + "column "
                + stream.getColumn()
                + ": its "
                + stream.getKind()
                + " stream of "
                + length
                + " bytes does not fit the stripe's "
                + room
                + " bytes of index and data ("
                + total
                + " used by streams before it)");
      }
      total += length;
      if (stream.getKind() == OrcProto.Stream.Kind.DICTIONARY_DATA
          || stream.getKind() == OrcProto.Stream.Kind.LENGTH) {
        dictionaryBytes.merge(stream.getColumn(), length, Long::sum);
      }
    }
    List<OrcProto.ColumnEncoding> encodings = footer.getColumnsList();
    for (int column = 0; column < encodings.size(); column++) {
      OrcProto.ColumnEncoding encoding = encodings.get(column);
      if (encoding.getKind() != OrcProto.ColumnEncoding.Kind.DICTIONARY
          && encoding.getKind() != OrcProto.ColumnEncoding.Kind.DICTIONARY_V2) {
        continue;
      }
      long size = encoding.getDictionarySize() & 0xFFFFFFFFL;
      // Entries are distinct, so all but a few hundred take a byte or more of the dictionary's
      // data, and each takes at least a bit of its length stream.
      long bytes = dictionaryBytes.getOrDefault(column, 0L);
      long max = Math.min(MAX_ARRAY_BYTES / 4, bytes * 8 * maxExpansion(kind) + 257);
      if (size > max) {
        throw new CorruptFileException(
            where
                + "column "
                + column
                + ": a dictionary of "
                + size
                + " entries in "
                + bytes
                + " bytes of dictionary and length streams (at most "
                + max
                + ")");
      }
    }
  }

  /**
   * The most bytes the values of one stripe can decode to: its data, times the codec's expansion
   * bound, and at most one array (orc-core holds a batch's bytes in one).
   */
  public static long stripeValueBytes(StripeInformation stripe, CompressionKind kind) {
    long data = stripe.getDataLength();
    long expansion = maxExpansion(kind);
    return data > MAX_ARRAY_BYTES / expansion ? MAX_ARRAY_BYTES : Math.max(1, data * expansion);
  }
}
