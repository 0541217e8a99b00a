package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The serialized footer of a Parquet file: the {@code FileMetaData} bytes that precede the trailing
 * 4-byte little-endian length and the magic, and whether the footer is encrypted (magic {@code
 * PARE}, whose bytes are not plain Thrift and must go to parquet-hadoop's full parse).
 *
 * @param metadata the FileMetaData bytes (position 0, limit = length), read-only
 * @param encrypted whether the file ends in {@code PARE}
 */
public record FooterBytes(ByteBuffer metadata, boolean encrypted) {

  /** Magic + length trailer. */
  public static final int TRAILER_BYTES = 8;

  /**
   * The most bytes one read request of a footer asks for. Hadoop's local streams end in {@code
   * FileInputStream}, whose native read copies through a buffer it allocates per call at the
   * request's size: one 100 MB request faults in 100 MB of fresh memory and took 0.6 to 1 s where 4
   * MiB requests through the same stream took 20 to 40 ms. A few MiB per request still keeps the
   * count of requests to a remote store small.
   */
  public static final int READ_CHUNK_BYTES = 4 << 20;

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

  /**
   * Reads the footer of a file of {@code fileLength} bytes from {@code in} with two positioned
   * reads.
   */
  public static FooterBytes read(SeekableInputStream in, long fileLength, String file)
      throws IOException {
    if (fileLength < MAGIC.length + TRAILER_BYTES) {
      throw new CorruptFileException(
          file + ": not a Parquet file: " + fileLength + " bytes is too short");
    }
    byte[] trailer = new byte[TRAILER_BYTES];
    in.seek(fileLength - TRAILER_BYTES);
    in.readFully(trailer);
    boolean encrypted = endsWith(trailer, ENCRYPTED_MAGIC);
    if (!encrypted && !endsWith(trailer, MAGIC)) {
      throw new CorruptFileException(file + ": not a Parquet file: no magic at its end");
    }
    long length = ByteBuffer.wrap(trailer).order(ByteOrder.LITTLE_ENDIAN).getInt(0) & 0xffffffffL;
    long footerStart = fileLength - TRAILER_BYTES - length;
    if (footerStart < MAGIC.length) {
      throw new CorruptFileException(
          file
              + ": corrupt Parquet footer: length "
              + length
              + " does not fit a file of "
              + fileLength
              + " bytes");
    }
    byte[] metadata = new byte[(int) length];
    in.seek(footerStart);
    readFully(in, metadata, 0, metadata.length);
    return new FooterBytes(ByteBuffer.wrap(metadata).asReadOnlyBuffer(), encrypted);
  }

  /**
   * Fills {@code bytes[offset, offset + length)} from the stream's position in requests of at most
   * {@link #READ_CHUNK_BYTES}.
   */
  public static void readFully(SeekableInputStream in, byte[] bytes, int offset, int length)
      throws IOException {
    for (int done = 0; done < length; ) {
      int n = Math.min(READ_CHUNK_BYTES, length - done);
      in.readFully(bytes, offset + done, n);
      done += n;
    }
  }

  private static boolean endsWith(byte[] trailer, byte[] magic) {
    for (int i = 0; i < magic.length; i++) {
      if (trailer[TRAILER_BYTES - magic.length + i] != magic[i]) {
        return false;
      }
    }
    return true;
  }
}
