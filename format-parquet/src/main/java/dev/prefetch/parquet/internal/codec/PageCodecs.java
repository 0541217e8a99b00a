package dev.prefetch.parquet.internal.codec;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import dev.prefetch.spi.ByteArrayPool;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;

/**
 * The page decompression that other writers need beyond parquet-hadoop's own factory, in front of
 * it:
 *
 * <ul>
 *   <li>An empty compressed section that decompresses to nothing (a DataPage V2 whose values are
 *       all null, as some writers emit it: its levels are stored uncompressed, and its data section
 *       is 0 bytes although the column is compressed) is an empty page for every codec; the codecs
 *       themselves refuse empty input.
 *   <li>Legacy {@code LZ4}: parquet-java wrote Hadoop's block framing (per block a 4-byte
 *       big-endian uncompressed length, then chunks of a 4-byte big-endian compressed length and a
 *       raw LZ4 block); other writers wrote one raw LZ4 block. A page is read as Hadoop framing
 *       when its frames parse and add up to exactly the page's bytes and its declared size, and as
 *       one raw block otherwise, as Arrow C++ does. The blocks are decompressed by aircompressor;
 *       parquet-hadoop's own LZ4 path needs lz4-java, which is not a dependency.
 *   <li>{@code BROTLI} through brotli4j's native decoder, which parquet-hadoop lacks.
 * </ul>
 *
 * Every output is bounded by the page header's uncompressed size: nothing is allocated from a
 * length inside the compressed bytes, and a page that decompresses to another size fails with an
 * {@link IOException}.
 */
public final class PageCodecs extends DecompressionInFront {

  /** Bytes of a Hadoop block or chunk length. */
  private static final int FRAME_LENGTH_BYTES = 4;

  /**
   * The page decompression of the reader's page readers, the one place that chooses it: ours
   * (legacy LZ4, BROTLI) in front of {@link HeapSnappyCodecs} (SNAPPY through snappy-java, heap
   * array to a pooled heap array) in front of parquet-hadoop's factory for every other codec. A
   * factory pools decompressors without locking: one per reader.
   *
   * @param buffers where SNAPPY pages are decompressed into; the caller gives each page's array
   *     back when done with it
   */
  public static CompressionCodecFactory forReader(Configuration conf, ByteArrayPool buffers) {
    return new PageCodecs(new HeapSnappyCodecs(HadoopCodecs.newFactory(conf, 0), buffers));
  }

  /** Our codecs in front of {@code delegate}, whose own serve every other codec. */
  public PageCodecs(CompressionCodecFactory delegate) {
    super(delegate);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    switch (codec) {
      case LZ4:
        return new Own(codec, PageCodecs::lz4);
      case BROTLI:
        return new Own(codec, PageCodecs::brotli);
      default:
        // parquet-hadoop's decompressor, except for an empty section
        return new Guarded(
            delegate.getDecompressor(codec),
            (compressed, uncompressed) -> !isEmpty(compressed, uncompressed));
    }
  }

  /** A decompression from a whole compressed section into an array of exactly its size. */
  private interface Decompression {
    void into(byte[] in, int offset, int length, byte[] out) throws IOException;
  }

  private static boolean isEmpty(long compressedLength, long uncompressedSize) {
    return compressedLength == 0 && uncompressedSize == 0;
  }

  /** A codec of ours, heap to heap. */
  private record Own(CompressionCodecName codec, Decompression decompression)
      implements BytesInputDecompressor {

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      if (uncompressedSize < 0) {
        throw new IOException(
            codec + " page declares a negative uncompressed size " + uncompressedSize);
      }
      byte[] in = bytes.toByteArray();
      if (isEmpty(in.length, uncompressedSize)) {
        return BytesInput.empty();
      }
      byte[] out = new byte[uncompressedSize];
      decompression.into(in, 0, in.length, out);
      return BytesInput.from(out);
    }

    @Override
    public void decompress(
        ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.duplicate().get(in);
      if (isEmpty(compressedSize, decompressedSize)) {
        return;
      }
      byte[] out = new byte[decompressedSize];
      decompression.into(in, 0, compressedSize, out);
      output.put(out);
    }

    @Override
    public void release() {
      // nothing pooled
    }
  }

  /** Legacy LZ4: Hadoop framing when it parses exactly, else one raw block. */
  static void lz4(byte[] in, int offset, int length, byte[] out) throws IOException {
    if (lz4Hadoop(in, offset, length, out)) {
      return;
    }
    int written = lz4Block(in, offset, length, out, 0, out.length);
    if (written != out.length) {
      throw new IOException(
          "LZ4 page decompressed to " + written + " bytes, its header says " + out.length);
    }
  }

  /**
   * Decompresses {@code length} bytes as Hadoop blocks (each a 4-byte big-endian uncompressed
   * length, a 4-byte big-endian compressed length and that many bytes of one raw LZ4 block, as
   * Hadoop's block compressor writes a page), when every frame fits, every block decompresses to
   * its declared length, and the frames end exactly where the section and the page's declared size
   * end. Returns false, with {@code out} to be overwritten, when they do not.
   */
  static boolean lz4Hadoop(byte[] in, int offset, int length, byte[] out) {
    int p = offset;
    int end = offset + length;
    int outPos = 0;
    while (end - p >= 2 * FRAME_LENGTH_BYTES) {
      long blockSize = bigEndianInt(in, p);
      long chunk = bigEndianInt(in, p + FRAME_LENGTH_BYTES);
      p += 2 * FRAME_LENGTH_BYTES;
      if (chunk > end - p || blockSize > out.length - outPos) {
        return false;
      }
      try {
        int written = lz4Block(in, p, (int) chunk, out, outPos, (int) blockSize);
        if (written != blockSize) {
          return false;
        }
      } catch (IOException e) {
        return false;
      }
      p += (int) chunk;
      outPos += (int) blockSize;
    }
    return p == end && outPos == out.length;
  }

  private static int lz4Block(
      byte[] in, int offset, int length, byte[] out, int outOffset, int maxLength)
      throws IOException {
    try {
      return new Lz4Decompressor().decompress(in, offset, length, out, outOffset, maxLength);
    } catch (MalformedInputException | IndexOutOfBoundsException e) {
      throw new IOException("malformed LZ4 block: " + e.getMessage(), e);
    }
  }

  private static long bigEndianInt(byte[] in, int p) {
    return (in[p] & 0xFFL) << 24
        | (in[p + 1] & 0xFFL) << 16
        | (in[p + 2] & 0xFFL) << 8
        | (in[p + 3] & 0xFFL);
  }

  /** BROTLI through brotli4j, reading no more than the declared size plus one byte. */
  static void brotli(byte[] in, int offset, int length, byte[] out) throws IOException {
    try {
      Brotli4jLoader.ensureAvailability();
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      throw new IOException(
          "BROTLI pages need brotli4j's native library, which did not load on "
              + System.getProperty("os.name")
              + "/"
              + System.getProperty("os.arch")
              + ": "
              + e,
          e);
    }
    try (InputStream stream = new BrotliInputStream(new ByteArrayInputStream(in, offset, length))) {
      int read = stream.readNBytes(out, 0, out.length);
      if (read != out.length || stream.read() >= 0) {
        throw new IOException(
            "BROTLI page does not decompress to the " + out.length + " bytes its header says");
      }
    }
  }
}
