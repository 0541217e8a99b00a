package dev.prefetch.orc.internal.metadata;

import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.spi.MemoryLedger;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;

/**
 * Decompresses and parses the ORC metadata messages the reader reads itself: the postscript, the
 * footer, the stripe statistics (the tail's metadata section) and the stripe footers.
 *
 * <p>Two things an engine's own orc-core must not be asked for. Decompression goes through the
 * reader's codecs ({@code internal.io}), never orc-core's: Spark's orc-core sits in a parent class
 * loader and cannot see a codec library the reader carries (brotli4j), so its BROTLI codec fails to
 * load there. Parsing goes through methods whose signatures name no protobuf type: Spark's orc-core
 * build (classifier {@code shaded-protobuf}) relocates protobuf, so a call such as {@code
 * parseFrom(CodedInputStream)} or {@code InStream.createCodedInputStream} fails there with a {@code
 * NoSuchMethodError}; {@code parseFrom(byte[])} and {@code parseFrom(InputStream)} exist in both
 * builds.
 */
public final class OrcProtos {

  private OrcProtos() {}

  /** The postscript held by {@code length} bytes of {@code bytes} from {@code offset}. */
  public static OrcProto.PostScript postScript(byte[] bytes, int offset, int length)
      throws IOException {
    return OrcProto.PostScript.parseFrom(new ByteArrayInputStream(bytes, offset, length));
  }

  /**
   * The footer held by {@code length} bytes of {@code bytes} from {@code offset}, in compression
   * blocks of {@code kind} of at most {@code blockSize} bytes.
   */
  static OrcProto.Footer footer(
      byte[] bytes, int offset, int length, CompressionKind kind, int blockSize)
      throws IOException {
    return OrcProto.Footer.parseFrom(decompress("footer", bytes, offset, length, kind, blockSize));
  }

  /**
   * The metadata section (the stripes' column statistics) held by {@code length} bytes of {@code
   * bytes} from {@code offset}, in compression blocks of {@code kind} of at most {@code blockSize}
   * bytes.
   */
  static OrcProto.Metadata metadata(
      byte[] bytes, int offset, int length, CompressionKind kind, int blockSize)
      throws IOException {
    return OrcProto.Metadata.parseFrom(
        decompress("stripe statistics", bytes, offset, length, kind, blockSize));
  }

  /**
   * The stripe footer held by {@code length} bytes of {@code bytes} from {@code offset},
   * decompressed through {@code decompression} (the file's codec).
   */
  public static OrcProto.StripeFooter stripeFooter(
      byte[] bytes, int offset, int length, DecompressionContext decompression) throws IOException {
    try (StreamInput in = decompression.open("stripe footer", bytes, offset, length)) {
      return OrcProto.StripeFooter.parseFrom(in.readAll());
    }
  }

  /**
   * The decompressed bytes of a tail section, through a codec of the reader's own made for it: the
   * tail is read once per file, so its codec and buffer are not kept.
   */
  private static byte[] decompress(
      String name, byte[] bytes, int offset, int length, CompressionKind kind, int blockSize)
      throws IOException {
    try (DecompressionContext context =
            new DecompressionContext(kind, blockSize, MemoryLedger.NONE, 0);
        StreamInput in = context.open(name, bytes, offset, length)) {
      return in.readAll();
    }
  }
}
