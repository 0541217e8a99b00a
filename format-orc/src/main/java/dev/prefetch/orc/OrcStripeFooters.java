package dev.prefetch.orc;

import dev.prefetch.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.orc.CompressionCodec;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;

/**
 * The stripe footers of an ORC file (column encodings and stream layout), for tools that show what
 * is in a file. orc-core reads a stripe footer only inside a record reader, which also reads the
 * stripe's data; this reads just the footers asked for. {@link #parse} is also how the reader
 * parses a footer: through a method whose signature names no protobuf type, since Spark's orc-core
 * build (classifier {@code shaded-protobuf}) relocates protobuf and a call such as {@code
 * parseFrom(CodedInputStream)} fails there with a {@code NoSuchMethodError}.
 */
public final class OrcStripeFooters {

  private OrcStripeFooters() {}

  /**
   * The footers of stripes {@code stripes} (positions in {@code reader.getStripes()}) of the file
   * {@code path} that {@code reader} describes, in the order asked.
   *
   * @throws IllegalArgumentException when a stripe does not exist
   * @throws CorruptFileException when a footer lies outside the file or does not decode
   */
  public static List<OrcProto.StripeFooter> read(
      FileSystem fs, Path path, Reader reader, List<Integer> stripes) throws IOException {
    List<StripeInformation> all = reader.getStripes();
    long fileLength = fs.getFileStatus(path).getLen();
    List<OrcProto.StripeFooter> footers = new ArrayList<>(stripes.size());
    CompressionCodec codec = OrcCodecPool.getCodec(reader.getCompressionKind());
    try (FSDataInputStream in = fs.open(path)) {
      InStream.StreamOptions options =
          InStream.options().withCodec(codec).withBufferSize(reader.getCompressionSize());
      for (int s : stripes) {
        if (s < 0 || s >= all.size()) {
          throw new IllegalArgumentException(
              path
                  + ": stripe "
                  + s
                  + " does not exist; the file "
                  + "has "
                  + all.size()
                  + " stripes");
        }
        StripeInformation stripe = all.get(s);
        long offset = stripe.getOffset() + stripe.getIndexLength() + stripe.getDataLength();
        long length = stripe.getFooterLength();
        if (offset < 0
            || length < 0
            || length > Integer.MAX_VALUE
            || offset > fileLength - length) {
          throw new CorruptFileException(
              path
                  + ": stripe "
                  + s
                  + "'s footer ("
                  + length
                  + " bytes at "
                  + offset
                  + ") lies outside the file of "
                  + fileLength
                  + " bytes");
        }
        byte[] bytes = new byte[(int) length];
        in.readFully(offset, bytes, 0, bytes.length);
        try {
          footers.add(parse(bytes, offset, options));
        } catch (IOException | RuntimeException e) {
          throw new CorruptFileException(
              path + ": stripe " + s + "'s footer does not decode: " + e.getMessage(), e);
        }
      }
    } finally {
      if (codec != null) {
        OrcCodecPool.returnCodec(reader.getCompressionKind(), codec);
      }
    }
    return footers;
  }

  /**
   * Parses the stripe footer held by {@code bytes} (read from {@code fileOffset}), decompressed
   * with {@code options}.
   */
  public static OrcProto.StripeFooter parse(
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
