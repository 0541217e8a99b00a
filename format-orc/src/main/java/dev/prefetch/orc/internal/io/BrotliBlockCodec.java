package dev.prefetch.orc.internal.io;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * ORC's BROTLI blocks: one brotli stream each, decompressed by brotli4j's native decoder (as
 * orc-core), its output pulled into the room given and refused past it.
 */
final class BrotliBlockCodec implements BlockCodec {

  @Override
  public int decompress(
      byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int maxLength)
      throws MalformedBlockException {
    try {
      Brotli4jLoader.ensureAvailability();
    } catch (LinkageError | RuntimeException e) {
      throw new MalformedBlockException(
          "BROTLI blocks need brotli4j's native library, which did not load: " + e, e);
    }
    DecoderJNI.Wrapper decoder;
    try {
      decoder = new DecoderJNI.Wrapper(Math.max(1, inLength));
    } catch (IOException e) {
      throw new MalformedBlockException("brotli decoder did not start: " + e.getMessage(), e);
    }
    try {
      decoder.getInputBuffer().put(in, inOffset, inLength);
      decoder.push(inLength);
      int written = 0;
      while (true) {
        switch (decoder.getStatus()) {
          case DONE -> {
            if (!decoder.hasOutput()) {
              return written;
            }
            written = pull(decoder, out, outOffset, written, maxLength);
          }
          case OK -> decoder.push(0);
          case NEEDS_MORE_OUTPUT -> written = pull(decoder, out, outOffset, written, maxLength);
          case NEEDS_MORE_INPUT -> {
            decoder.push(0);
            if (decoder.getStatus() == DecoderJNI.Status.NEEDS_MORE_INPUT) {
              // truncated: what it decoded so far, as orc-core's codec
              return written;
            }
          }
          default -> throw new MalformedBlockException("bad brotli data");
        }
      }
    } finally {
      decoder.destroy();
    }
  }

  private static int pull(
      DecoderJNI.Wrapper decoder, byte[] out, int outOffset, int written, int maxLength)
      throws MalformedBlockException {
    ByteBuffer chunk = decoder.pull();
    int n = chunk.remaining();
    if (n > maxLength - written) {
      throw new MalformedBlockException(
          "decompresses to more than the compression block size of " + maxLength);
    }
    chunk.get(out, outOffset + written, n);
    return written + n;
  }

  @Override
  public long maxExpansion() {
    return 1 << 15;
  }

  @Override
  public void close() {
    // each block has its own decoder
  }
}
