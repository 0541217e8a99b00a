package dev.prefetch.orc.internal.io;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.snappy.SnappyDecompressor;
import java.io.IOException;
import org.xerial.snappy.Snappy;

/**
 * ORC's SNAPPY blocks: one raw snappy block each. Decompressed by snappy-java's native library
 * (about twice aircompressor's Java decoder on ORC stream data); aircompressor where the native
 * library does not load.
 *
 * <p>snappy-java writes the length the block declares without a bound of its own, so that length is
 * checked against the room first.
 */
final class SnappyBlockCodec implements BlockCodec {

  /** Whether snappy-java's native library loaded (checked once, on first use). */
  private static final class Native {
    static final boolean LOADED = load();

    private static boolean load() {
      try {
        return Snappy.uncompressedLength(new byte[] {0}) == 0;
      } catch (IOException | LinkageError | RuntimeException e) {
        return false;
      }
    }
  }

  /** aircompressor's decoder, or null when snappy-java's native one serves. */
  private final SnappyDecompressor java;

  private SnappyBlockCodec(SnappyDecompressor java) {
    this.java = java;
  }

  static SnappyBlockCodec create() {
    return new SnappyBlockCodec(Native.LOADED ? null : new SnappyDecompressor());
  }

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    if (java != null) {
      try {
        return java.decompress(in, inOffset, inLength, out, outOffset, maxLength);
      } catch (MalformedInputException | IndexOutOfBoundsException e) {
        throw new MalformedBlockException("bad snappy data: " + e.getMessage(), e);
      }
    }
    try {
      int declared = Snappy.uncompressedLength(in, inOffset, inLength);
      if (declared < 0 || declared > maxLength) {
        throw new MalformedBlockException(
            "snappy block declares "
                + declared
                + " bytes, more than the compression block size of "
                + maxLength);
      }
      return Snappy.uncompress(in, inOffset, inLength, out, outOffset);
    } catch (IOException e) {
      throw new MalformedBlockException("bad snappy data: " + e.getMessage(), e);
    }
  }

  @Override
  public long maxExpansion() {
    return 32;
  }

  @Override
  public void close() {
    // no native state held between blocks
  }
}
