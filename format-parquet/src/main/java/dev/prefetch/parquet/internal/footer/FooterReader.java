package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheValue;
import dev.prefetch.cache.FileIdentity;
import dev.prefetch.spi.ScanCounters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads a Parquet footer once per reader: the serialized {@code FileMetaData} bytes (through the
 * metadata cache when there is one and the file has an identity), then parses them.
 *
 * <p>This is the one place that knows where footer bytes come from and how they become a {@link
 * ParquetMetadata}. The two steps are separate methods ({@link #footerBytes} and {@link #parse}) so
 * that another way of decoding the same bytes (an index of row-group positions that decodes only
 * the row groups a read asks for) can replace {@link #parse} without touching I/O or caching.
 *
 * <p>Layout read: {@code ... footer bytes | footer length (4 bytes, little endian) | "PAR1"}. The
 * last {@value #SPECULATIVE_TAIL_BYTES} bytes (or the whole file when shorter) are read in one
 * request, which holds the whole footer of most files; the rest of a longer footer is read in
 * requests of at most {@link FooterBytes#READ_CHUNK_BYTES} (one huge request is far slower on
 * Hadoop's local streams). Every length read from the file is checked against the file size before
 * anything is allocated.
 */
public final class FooterReader {

  /** Bytes read from the end of the file in the first request. */
  public static final int SPECULATIVE_TAIL_BYTES = 64 << 10;

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

  /**
   * The largest footer read: one array. A 4-byte length can say up to 4 GiB, which only a file over
   * 2 GiB can hold; such a length is corrupt, not a footer to allocate.
   */
  static final long MAX_FOOTER_BYTES = Integer.MAX_VALUE - 8;

  /** Head magic, footer length, tail magic. */
  private static final int MIN_FILE_BYTES = 12;

  private final DataFile file;
  private final InputFile input;
  private final long fileLength;
  private final ScanCounters counters;

  /**
   * @param file the file, for messages
   * @param input the file's bytes (a counting input, so footer bytes count as bytes read)
   * @param fileLength its length from the filesystem
   */
  public FooterReader(DataFile file, InputFile input, long fileLength, ScanCounters counters) {
    this.file = Objects.requireNonNull(file, "file is null");
    this.input = Objects.requireNonNull(input, "input is null");
    this.fileLength = fileLength;
    this.counters = Objects.requireNonNull(counters, "counters is null");
  }

  /** Reads (or fetches from the cache) and parses the footer. */
  public ParquetMetadata read(Cache cache, FileIdentity identity) throws IOException {
    return parse(footerBytes(cache, identity));
  }

  /**
   * The serialized footer: from {@code cache} under {@link CacheKey#footer} when both the cache and
   * the identity are there (a hit reads nothing from the file), else from the file; a cache without
   * an identity counts a bypass.
   */
  public byte[] footerBytes(Cache cache, FileIdentity identity) throws IOException {
    return footerBytes(cache, identity, null);
  }

  /**
   * As {@link #footerBytes(Cache, FileIdentity)}; on a cache miss, {@code check} (when not null)
   * confirms after the read that the file is still the version {@code identity} names (see {@link
   * #readVerified}).
   */
  public byte[] footerBytes(Cache cache, FileIdentity identity, FileVersionCheck check)
      throws IOException {
    if (cache == null) {
      return readFromFile();
    }
    if (identity == null) {
      cache.recordBypass();
      CacheBypassLog.bypassed(file.toString());
      return readFromFile();
    }
    CacheValue value =
        cache.get(
            CacheKey.footer(identity), key -> CacheValue.copyOf(readVerified(identity, check)));
    return value.toByteArray();
  }

  /**
   * Reads the footer from the file and, when {@code identity} and {@code check} are given, takes
   * the file's identity again: if it changed, also when the read failed (a rewrite may make the old
   * length point into the new file's data), the bytes belong to no one version and {@link
   * FileChangedWhileReading} is thrown instead.
   */
  public byte[] readVerified(FileIdentity identity, FileVersionCheck check) throws IOException {
    if (identity == null || check == null) {
      return readFromFile();
    }
    byte[] footer;
    try {
      footer = readFromFile();
    } catch (IOException | RuntimeException e) {
      if (!identity.equals(check.current())) {
        throw new FileChangedWhileReading(file, e);
      }
      throw e;
    }
    if (!identity.equals(check.current())) {
      throw new FileChangedWhileReading(file, null);
    }
    return footer;
  }

  /**
   * Parses serialized footer bytes; a failure is a {@link CorruptFileException} naming the file.
   */
  public ParquetMetadata parse(byte[] footer) throws CorruptFileException {
    try {
      return new ParquetMetadataConverter()
          .readParquetMetadata(
              new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "Corrupt Parquet footer in " + file + " (" + footer.length + " bytes): " + e.getMessage(),
          e);
    }
  }

  private byte[] readFromFile() throws IOException {
    if (fileLength == 0) {
      throw new CorruptFileException("Not a Parquet file: " + file + " is empty");
    }
    if (fileLength < MIN_FILE_BYTES) {
      throw new CorruptFileException(
          "Not a Parquet file: "
              + file
              + " has only "
              + fileLength
              + " bytes, fewer than the "
              + MIN_FILE_BYTES
              + " of the smallest Parquet file");
    }
    counters.increment(ScanCounters.FOOTER_READS);
    try (SeekableInputStream in = input.newStream()) {
      int tailLength = (int) Math.min(fileLength, SPECULATIVE_TAIL_BYTES);
      byte[] tail = new byte[tailLength];
      in.seek(fileLength - tailLength);
      in.readFully(tail);
      counters.add(ScanCounters.FOOTER_BYTES_READ, tailLength);
      if (!regionEquals(tail, tailLength - 4, MAGIC)) {
        if (regionEquals(tail, tailLength - 4, ENCRYPTED_MAGIC)) {
          throw new IOException(
              "Cannot read "
                  + file
                  + ": its footer is encrypted, and encrypted Parquet files are not supported");
        }
        throw new CorruptFileException(
            "Not a Parquet file (or truncated): "
                + file
                + " does not end with the magic bytes PAR1");
      }
      long footerLength = readIntLittleEndian(tail, tailLength - 8) & 0xFFFFFFFFL;
      long maxFooterLength = fileLength - MIN_FILE_BYTES;
      if (footerLength == 0 || footerLength > maxFooterLength || footerLength > MAX_FOOTER_BYTES) {
        throw new CorruptFileException(
            "Corrupt Parquet file "
                + file
                + ": footer length "
                + footerLength
                + " does not fit the file of "
                + fileLength
                + " bytes (at most "
                + Math.min(maxFooterLength, MAX_FOOTER_BYTES)
                + ")");
      }
      int length = (int) footerLength;
      byte[] footer = new byte[length];
      int inTail = tailLength - 8;
      if (length <= inTail) {
        System.arraycopy(tail, inTail - length, footer, 0, length);
      } else {
        // The footer starts before the speculative tail: read its head, reuse the rest.
        int head = length - inTail;
        in.seek(fileLength - 8 - length);
        FooterBytes.readFully(in, footer, 0, head);
        counters.add(ScanCounters.FOOTER_BYTES_READ, head);
        System.arraycopy(tail, 0, footer, head, inTail);
      }
      return footer;
    }
  }

  private static boolean regionEquals(byte[] bytes, int offset, byte[] expected) {
    for (int i = 0; i < expected.length; i++) {
      if (bytes[offset + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }

  private static int readIntLittleEndian(byte[] bytes, int offset) {
    return (bytes[offset] & 0xFF)
        | (bytes[offset + 1] & 0xFF) << 8
        | (bytes[offset + 2] & 0xFF) << 16
        | (bytes[offset + 3] & 0xFF) << 24;
  }
}
