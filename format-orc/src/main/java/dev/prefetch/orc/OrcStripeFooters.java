package dev.prefetch.orc;

import dev.prefetch.CorruptFileException;
import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.metadata.OrcProtos;
import dev.prefetch.spi.MemoryLedger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;

/**
 * The stripe footers of an ORC file (column encodings and stream layout), for tools that show what
 * is in a file. orc-core reads a stripe footer only inside a record reader, which also reads the
 * stripe's data; this reads just the footers asked for, and decompresses them with the reader's own
 * codecs, as the read path does (an engine's orc-core may not load every codec the reader reads).
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
    try (FSDataInputStream in = fs.open(path);
        DecompressionContext decompression =
            new DecompressionContext(
                reader.getCompressionKind(), reader.getCompressionSize(), MemoryLedger.NONE, 0)) {
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
          footers.add(OrcProtos.stripeFooter(bytes, 0, bytes.length, decompression));
        } catch (IOException | RuntimeException e) {
          throw new CorruptFileException(
              path + ": stripe " + s + "'s footer does not decode: " + e.getMessage(), e);
        }
      }
    }
    return footers;
  }
}
