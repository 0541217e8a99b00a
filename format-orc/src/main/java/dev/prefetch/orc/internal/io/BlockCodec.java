package dev.prefetch.orc.internal.io;

import org.apache.orc.CompressionKind;

/**
 * The decompressor of one ORC compression kind, for one compression block at a time: heap array to
 * heap array, the output bounded by the room given (the file's compression block size), so a
 * corrupt block fails with a {@link MalformedBlockException} and never writes past its room.
 *
 * <p>The implementations are the fastest decoders on the class path, measured on ORC stream data
 * (see each class): zlib through the JDK's {@link java.util.zip.Inflater} (native zlib), snappy
 * through snappy-java, LZ4 through lz4-java and zstd through zstd-jni (all three native, about 1.7x
 * to 2x aircompressor's pure Java decoders), LZO through aircompressor (the only one), brotli
 * through brotli4j. Where a native library does not load, snappy and zstd fall back to
 * aircompressor, as orc-core does for zstd; lz4-java falls back to its own Java decoder.
 *
 * <p>An instance may hold native state (an inflater, a zstd context): one per reader thread, closed
 * with its {@link DecompressionContext}. Not thread-safe.
 */
sealed interface BlockCodec extends AutoCloseable
    permits ZlibBlockCodec,
        SnappyBlockCodec,
        Lz4BlockCodec,
        ZstdBlockCodec,
        LzoBlockCodec,
        BrotliBlockCodec {

  /**
   * Decompresses {@code in[inOffset, inOffset + inLength)} into {@code out} from {@code outOffset},
   * writing at most {@code maxLength} bytes.
   *
   * @return the bytes written
   * @throws MalformedBlockException when the block does not decompress, or decompresses to more
   *     than {@code maxLength} bytes
   */
  int decompress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException;

  /**
   * The most bytes one compressed byte can stand for: the codec's own bound, used to bound what a
   * stream can still hold before anything is allocated from a length read out of it (deflate
   * 1032:1, snappy's 64-byte copies in 2 bytes, LZ4's and LZO's 255-byte run extensions; zstd and
   * brotli encode a run of a block's size in a few bytes, so their bound is the block itself).
   */
  long maxExpansion();

  /** Frees native state; the codec is not used after. */
  @Override
  void close();

  /** The codec of {@code kind}; {@code NONE} has none (its streams have no blocks). */
  static BlockCodec of(CompressionKind kind) {
    return switch (kind) {
      case ZLIB -> new ZlibBlockCodec();
      case SNAPPY -> SnappyBlockCodec.create();
      case LZ4 -> new Lz4BlockCodec();
      case ZSTD -> ZstdBlockCodec.create();
      case LZO -> new LzoBlockCodec();
      case BROTLI -> new BrotliBlockCodec();
      default -> throw new IllegalArgumentException("no block codec for compression " + kind);
    };
  }
}
