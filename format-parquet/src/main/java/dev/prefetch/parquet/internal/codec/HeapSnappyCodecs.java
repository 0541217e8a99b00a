package dev.prefetch.parquet.internal.codec;

import dev.prefetch.parquet.internal.check.PageHeaderCheck;
import dev.prefetch.spi.ByteArrayPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * A codec factory that decompresses SNAPPY pages in one call from heap array to heap array, and
 * hands every other codec (and all compression) to parquet-hadoop's factory.
 *
 * <p>parquet-hadoop's SNAPPY path streams a page through a decompressor stream, copying it into a
 * direct buffer, decompressing into another and copying the result back to the heap; a Parquet
 * SNAPPY page is one raw snappy block, so it can be decompressed straight into the page array the
 * decoders read. The block's declared length is checked against the page header's uncompressed size
 * before anything is written, so a corrupt page fails with an {@link IOException} and cannot write
 * past its array. Pages are written into arrays lent by the reader's {@link ByteArrayPool}, which
 * the page reader ({@code page.ChunkPages}) gives back when it moves to the next page.
 */
final class HeapSnappyCodecs extends DecompressionInFront {

  private final ByteArrayPool buffers;

  HeapSnappyCodecs(CompressionCodecFactory delegate, ByteArrayPool buffers) {
    super(delegate);
    this.buffers = buffers;
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    BytesInputDecompressor other = delegate.getDecompressor(codec);
    return codec == CompressionCodecName.SNAPPY
        ? new SnappyDecompressor(other, buffers)
        : new Guarded(
            other,
            (compressed, uncompressed) -> {
              checkExpansion(codec, compressed, uncompressed);
              return true;
            });
  }

  /**
   * Fails a page whose stated uncompressed size is more than its compressed bytes can expand to
   * under {@code codec}, before the decompressor allocates that size (page headers are checked when
   * their chunk arrives too, see {@link PageHeaderCheck}; this covers every page that is
   * decompressed).
   */
  static void checkExpansion(CompressionCodecName codec, long compressed, long uncompressed)
      throws IOException {
    long most = compressed * PageHeaderCheck.maxExpansion(codec) + 64;
    if (uncompressed < 0 || uncompressed > most) {
      throw new IOException(
          codec
              + " page of "
              + compressed
              + " bytes declares "
              + uncompressed
              + " uncompressed bytes, more than the "
              + most
              + " it can expand to");
    }
  }

  /** SNAPPY pages, heap to heap; the direct-buffer entry point stays parquet-hadoop's. */
  private record SnappyDecompressor(BytesInputDecompressor direct, ByteArrayPool buffers)
      implements BytesInputDecompressor {

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      ByteBuffer in = bytes.toByteBuffer();
      byte[] array;
      int offset;
      int length = in.remaining();
      if (in.hasArray()) {
        array = in.array();
        offset = in.arrayOffset() + in.position();
      } else {
        array = new byte[length];
        in.duplicate().get(array);
        offset = 0;
      }
      checkExpansion(CompressionCodecName.SNAPPY, length, uncompressedSize);
      int declared = Snappy.uncompressedLength(array, offset, length);
      if (declared != uncompressedSize) {
        throw new IOException(
            "SNAPPY page decompresses to "
                + declared
                + " bytes, its header says "
                + uncompressedSize);
      }
      byte[] out = buffers.take(uncompressedSize);
      int written = Snappy.uncompress(array, offset, length, out, 0);
      if (written != uncompressedSize) {
        throw new IOException(
            "SNAPPY page decompressed to "
                + written
                + " bytes, its header says "
                + uncompressedSize);
      }
      return BytesInput.from(out, 0, uncompressedSize);
    }

    @Override
    public void decompress(
        ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
        throws IOException {
      direct.decompress(input, compressedSize, output, decompressedSize);
    }

    @Override
    public void release() {
      direct.release();
    }
  }
}
