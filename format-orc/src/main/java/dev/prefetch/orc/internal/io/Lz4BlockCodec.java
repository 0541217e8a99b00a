package dev.prefetch.orc.internal.io;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * ORC's LZ4 blocks: one raw LZ4 block each (no frame). Decompressed by lz4-java's fastest instance
 * (its native library, else its Java decoder), whose safe decompressor bounds the output by the
 * room given; about 1.7x aircompressor's decoder on ORC stream data.
 */
final class Lz4BlockCodec implements BlockCodec {

  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    try {
      return DECOMPRESSOR.decompress(in, inOffset, inLength, out, outOffset, maxLength);
    } catch (LZ4Exception | IndexOutOfBoundsException e) {
      throw new MalformedBlockException(
          "bad LZ4 data (or more than the compression block size of "
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
