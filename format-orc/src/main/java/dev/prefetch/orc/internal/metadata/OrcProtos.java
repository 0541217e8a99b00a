package dev.prefetch.orc.internal.metadata;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;

/**
 * Parses the ORC metadata messages the reader reads itself, through methods whose signatures name
 * no protobuf type: Spark's orc-core build (classifier {@code shaded-protobuf}) relocates protobuf,
 * so a call such as {@code parseFrom(CodedInputStream)} or {@code InStream.createCodedInputStream}
 * fails there with a {@code NoSuchMethodError}. Stripe footers are parsed by {@link
 * dev.prefetch.orc.OrcStripeFooters#parse} the same way.
 */
public final class OrcProtos {

  private OrcProtos() {}

  /** The postscript held by {@code length} bytes of {@code bytes} from {@code offset}. */
  public static OrcProto.PostScript postScript(byte[] bytes, int offset, int length)
      throws IOException {
    return OrcProto.PostScript.parseFrom(new ByteArrayInputStream(bytes, offset, length));
  }

  /**
   * The footer held by {@code length} bytes of {@code bytes} from {@code offset}, in chunks of
   * {@code kind} of at most {@code blockSize} bytes.
   */
  static OrcProto.Footer footer(
      byte[] bytes, int offset, int length, CompressionKind kind, int blockSize)
      throws IOException {
    CompressionCodec codec = OrcCodecPool.getCodec(kind);
    try {
      InStream.StreamOptions options = InStream.options();
      if (codec != null) {
        options.withCodec(codec).withBufferSize(blockSize);
      }
      return OrcProto.Footer.parseFrom(
          InStream.create(
              "footer", new BufferChunk(ByteBuffer.wrap(bytes), 0), offset, length, options));
    } finally {
      if (codec != null) {
        OrcCodecPool.returnCodec(kind, codec);
      }
    }
  }
}
