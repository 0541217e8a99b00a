package dev.prefetch.orc.internal.io;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * ORC's ZLIB blocks: raw deflate (no zlib header), inflated by the JDK's native zlib. One {@link
 * Inflater}, reset for every block.
 *
 * <p>A block whose deflate data end before its final block yields what it inflated so far, as
 * orc-core's codec does (it stops when the inflater needs more input); the decoders then find the
 * stream short if the values need more.
 */
final class ZlibBlockCodec implements BlockCodec {

  private final Inflater inflater = new Inflater(true);

  /** One byte to learn whether a block would inflate past its room. */
  private final byte[] probe = new byte[1];

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    inflater.reset();
    inflater.setInput(in, inOffset, inLength);
    int written = 0;
    try {
      while (written < maxLength) {
        int n = inflater.inflate(out, outOffset + written, maxLength - written);
        written += n;
        if (n == 0 && (inflater.finished() || inflater.needsInput())) {
          return written;
        }
        if (n == 0 && inflater.needsDictionary()) {
          throw new MalformedBlockException("deflate data asks for a preset dictionary");
        }
      }
      if (!inflater.finished() && !inflater.needsInput() && inflater.inflate(probe, 0, 1) > 0) {
        throw new MalformedBlockException(
            "inflates to more than the compression block size of " + maxLength + " bytes");
      }
      return written;
    } catch (DataFormatException e) {
      throw new MalformedBlockException("bad deflate data: " + e.getMessage(), e);
    }
  }

  @Override
  public long maxExpansion() {
    return 1032;
  }

  @Override
  public void close() {
    inflater.end();
  }
}
