package dev.prefetch.orc.internal.io;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lzo.LzoDecompressor;

/** ORC's LZO blocks: one raw LZO1X block each, decompressed by aircompressor (as orc-core). */
final class LzoBlockCodec implements BlockCodec {

  private final LzoDecompressor decompressor = new LzoDecompressor();

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    try {
      return decompressor.decompress(in, inOffset, inLength, out, outOffset, maxLength);
    } catch (MalformedInputException | IndexOutOfBoundsException e) {
      throw new MalformedBlockException(
          "bad LZO data (or more than the compression block size of "
              + maxLength
              + " bytes): "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public long maxExpansion() {
    return 256;
  }

  @Override
  public void close() {
    // stateless
  }
}
