package dev.prefetch.parquet.internal;

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
}
