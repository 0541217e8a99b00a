package dev.prefetch.parquet.internal.codec;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * A codec factory that puts decompressors of its own in front of another factory, which keeps all
 * compression and its own resources: the common part of this module's page codecs, which stack
 * ({@link PageCodecs} in front of {@link HeapSnappyCodecs} in front of parquet-hadoop's factory).
 */
abstract class DecompressionInFront implements CompressionCodecFactory {

  /** The factory behind: every compressor, and the decompressors this one does not replace. */
  final CompressionCodecFactory delegate;

  DecompressionInFront(CompressionCodecFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public final BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return delegate.getCompressor(codec);
  }

  @Override
  public final void release() {
    delegate.release();
  }

  /** A look at a section's sizes before it is decompressed. */
  interface Guard {
    /**
     * Whether the section must be decompressed: false for one that is empty by its sizes alone.
     *
     * @throws IOException for sizes that no page of the codec can have
     */
    boolean decompresses(long compressed, long uncompressed) throws IOException;
  }

  /** The factory behind's decompressor, behind a {@link Guard}. */
  record Guarded(BytesInputDecompressor delegate, Guard guard) implements BytesInputDecompressor {

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      return guard.decompresses(bytes.size(), uncompressedSize)
          ? delegate.decompress(bytes, uncompressedSize)
          : BytesInput.empty();
    }

    @Override
    public void decompress(
        ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
        throws IOException {
      if (guard.decompresses(compressedSize, decompressedSize)) {
        delegate.decompress(input, compressedSize, output, decompressedSize);
      }
    }

    @Override
    public void release() {
      delegate.release();
    }
  }
}
