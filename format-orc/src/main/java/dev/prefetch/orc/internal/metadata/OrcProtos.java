package dev.prefetch.orc.internal.metadata;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.orc.OrcProto;

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
}
