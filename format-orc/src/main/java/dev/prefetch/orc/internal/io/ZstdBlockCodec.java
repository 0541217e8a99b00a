package dev.prefetch.orc.internal.io;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdDecompressor;

/**
 * ORC's ZSTD blocks: one zstd frame each. Decompressed by zstd-jni through one reused native
 * context (about 1.7x aircompressor's Java decoder on ORC stream data); aircompressor where
 * zstd-jni's native library does not load, as orc-core does.
 */
final class ZstdBlockCodec implements BlockCodec {

  /** Whether zstd-jni's native library loaded (checked once, on first use). */
  private static final class Native {
    static final boolean LOADED = load();

    private static boolean load() {
      try {
        com.github.luben.zstd.util.Native.load();
        return com.github.luben.zstd.util.Native.isLoaded();
      } catch (LinkageError | RuntimeException e) {
        return false;
      }
    }
  }

  /** zstd-jni's context, or null when aircompressor's decoder serves. */
  private final ZstdDecompressCtx context;

  private final ZstdDecompressor java;

  private ZstdBlockCodec(ZstdDecompressCtx context, ZstdDecompressor java) {
    this.context = context;
    this.java = java;
  }

  static ZstdBlockCodec create() {
    return Native.LOADED
        ? new ZstdBlockCodec(new ZstdDecompressCtx(), null)
        : new ZstdBlockCodec(null, new ZstdDecompressor());
  }

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    try {
      if (context != null) {
        return context.decompressByteArray(out, outOffset, maxLength, in, inOffset, inLength);
      }
      return java.decompress(in, inOffset, inLength, out, outOffset, maxLength);
    } catch (ZstdException | MalformedInputException | IndexOutOfBoundsException e) {
      throw new MalformedBlockException(
          "bad zstd data (or more than the compression block size of "
              + maxLength
              + " bytes): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public long maxExpansion() {
    return 1 << 15;
  }

  @Override
  public void close() {
    if (context != null) {
      context.close();
    }
  }
}
