package dev.prefetch.orc.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;

/**
 * Parses the ORC metadata messages the reader reads itself, through methods whose signatures name
 * no protobuf type: Spark's orc-core build (classifier {@code shaded-protobuf}) relocates protobuf,
 * so a call such as {@code parseFrom(CodedInputStream)} or {@code InStream.createCodedInputStream}
 * fails there with a {@code NoSuchMethodError}.
 */
public final class OrcProtos {

  private OrcProtos() {}

  /** The postscript held by {@code length} bytes of {@code bytes} from {@code offset}. */
  static OrcProto.PostScript postScript(byte[] bytes, int offset, int length) throws IOException {
    return OrcProto.PostScript.parseFrom(new ByteArrayInputStream(bytes, offset, length));
  }

  /**
   * The stripe footer held by {@code bytes} (read from {@code fileOffset}), decompressed with
   * {@code options}.
   */
  public static OrcProto.StripeFooter stripeFooter(
      byte[] bytes, long fileOffset, InStream.StreamOptions options) throws IOException {
    return OrcProto.StripeFooter.parseFrom(
        InStream.create(
            "footer",
            new BufferChunk(ByteBuffer.wrap(bytes), fileOffset),
            fileOffset,
            bytes.length,
            options));
  }
}
