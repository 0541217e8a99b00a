package dev.prefetch.orc.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;

/**
 * Edits the decoded metadata of a valid ORC file (postscript, footer, stripe footers) and writes
 * the file back around its unchanged stripe bytes: the way tests and the fuzzer make files whose
 * structure parses but states sizes and counts that are wrong.
 *
 * <p>Compressed sections are read through orc-core's streams and written back as uncompressed
 * ("original") chunks, which every reader accepts in a compressed file. Stripe offsets, footer
 * lengths and the content length are recomputed before the footer edit runs, so an edit of those
 * fields stands as written.
 */
public final class OrcSurgery {

  /** An edit of stripe {@code stripe}'s footer. */
  public interface StripeFooterEdit {
    void edit(int stripe, OrcProto.StripeFooter.Builder footer);
  }

  private final byte[] file;
  private final OrcProto.PostScript postScript;
  private final OrcProto.Footer footer;
  private final List<OrcProto.StripeFooter> stripeFooters = new ArrayList<>();
  private final int psLength;
  private final long footerStart;
  private final long statisticsStart;

  /** Decodes the metadata of {@code file}, a valid ORC file. */
  public OrcSurgery(byte[] file) throws IOException {
    this.file = file;
    int length = file.length;
    this.psLength = file[length - 1] & 0xFF;
    this.postScript =
        OrcProto.PostScript.parseFrom(ByteBuffer.wrap(file, length - 1 - psLength, psLength));
    this.footerStart = length - 1 - psLength - postScript.getFooterLength();
    this.statisticsStart =
        footerStart - postScript.getMetadataLength() - postScript.getStripeStatisticsLength();
    this.footer = OrcProto.Footer.parseFrom(decode(footerStart, postScript.getFooterLength()));
    for (OrcProto.StripeInformation stripe : footer.getStripesList()) {
      long at = stripe.getOffset() + stripe.getIndexLength() + stripe.getDataLength();
      stripeFooters.add(OrcProto.StripeFooter.parseFrom(decode(at, stripe.getFooterLength())));
    }
  }

  public OrcProto.PostScript postScript() {
    return postScript;
  }

  public OrcProto.Footer footer() {
    return footer;
  }

  public OrcProto.StripeFooter stripeFooter(int stripe) {
    return stripeFooters.get(stripe);
  }

  /** Where the first stream of {@code kind} of {@code column} in {@code stripe} starts, or -1. */
  public long streamOffset(int stripe, int column, OrcProto.Stream.Kind kind) {
    long position = footer.getStripes(stripe).getOffset();
    for (OrcProto.Stream stream : stripeFooters.get(stripe).getStreamsList()) {
      if (stream.getColumn() == column && stream.getKind() == kind) {
        return position;
      }
      position += stream.getLength();
    }
    return -1;
  }

  /** The file with the edits applied (null edits leave a part as it is). */
  public byte[] rewrite(
      StripeFooterEdit stripeEdit,
      Consumer<OrcProto.Footer.Builder> footerEdit,
      Consumer<OrcProto.PostScript.Builder> postScriptEdit)
      throws IOException {
    return rewrite(stripeEdit, footerEdit, postScriptEdit, true);
  }

  /**
   * The file with the edits applied; without its stripe statistics (as the first ORC format's
   * writers left files) when {@code stripeStatistics} is false.
   */
  public byte[] rewrite(
      StripeFooterEdit stripeEdit,
      Consumer<OrcProto.Footer.Builder> footerEdit,
      Consumer<OrcProto.PostScript.Builder> postScriptEdit,
      boolean stripeStatistics)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 1024);
    List<OrcProto.StripeInformation> stripes = footer.getStripesList();
    long firstStripe = stripes.isEmpty() ? statisticsStart : stripes.get(0).getOffset();
    out.write(file, 0, (int) firstStripe);
    OrcProto.Footer.Builder newFooter = footer.toBuilder().clearStripes();
    for (int s = 0; s < stripes.size(); s++) {
      OrcProto.StripeInformation stripe = stripes.get(s);
      long offset = out.size();
      int body = (int) (stripe.getIndexLength() + stripe.getDataLength());
      out.write(file, (int) stripe.getOffset(), body);
      OrcProto.StripeFooter.Builder stripeFooter = stripeFooters.get(s).toBuilder();
      if (stripeEdit != null) {
        stripeEdit.edit(s, stripeFooter);
      }
      byte[] encoded = encode(stripeFooter.build().toByteArray());
      out.write(encoded);
      newFooter.addStripes(stripe.toBuilder().setOffset(offset).setFooterLength(encoded.length));
    }
    newFooter.setContentLength(out.size());
    if (stripeStatistics) {
      out.write(file, (int) statisticsStart, (int) (footerStart - statisticsStart));
    }
    if (footerEdit != null) {
      footerEdit.accept(newFooter);
    }
    byte[] footerBytes = encode(newFooter.build().toByteArray());
    out.write(footerBytes);
    OrcProto.PostScript.Builder ps = postScript.toBuilder().setFooterLength(footerBytes.length);
    if (!stripeStatistics) {
      ps.clearMetadataLength().clearStripeStatisticsLength();
    }
    if (postScriptEdit != null) {
      postScriptEdit.accept(ps);
    }
    byte[] psBytes = ps.build().toByteArray();
    if (psBytes.length > 255) {
      throw new IllegalArgumentException("postscript of " + psBytes.length + " bytes");
    }
    out.write(psBytes);
    out.write(psBytes.length);
    return out.toByteArray();
  }

  /** The postscript's compression block size, or the default of a postscript without one. */
  private int blockSize() {
    long size = postScript.getCompressionBlockSize();
    return size > 0 ? (int) size : 256 << 10;
  }

  private CompressionKind kind() {
    return CompressionKind.valueOf(postScript.getCompression().name());
  }

  private ByteBuffer decode(long offset, long length) throws IOException {
    InStream.StreamOptions options = InStream.options();
    CompressionCodec codec = null;
    if (kind() != CompressionKind.NONE) {
      codec = OrcCodecPool.getCodec(kind());
      options.withCodec(codec).withBufferSize(blockSize());
    }
    try (InStream in =
        InStream.create(
            "metadata",
            new BufferChunk(ByteBuffer.wrap(file, (int) offset, (int) length).slice(), 0),
            0,
            length,
            options)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = in.read(buffer, 0, buffer.length)) > 0; ) {
        bytes.write(buffer, 0, n);
      }
      return ByteBuffer.wrap(bytes.toByteArray());
    } finally {
      if (codec != null) {
        OrcCodecPool.returnCodec(kind(), codec);
      }
    }
  }

  /** {@code bytes} as a section of this file: as is, or in uncompressed chunks. */
  private byte[] encode(byte[] bytes) {
    if (kind() == CompressionKind.NONE) {
      return bytes;
    }
    int block = blockSize();
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 16);
    for (int at = 0; at < bytes.length; at += block) {
      int n = Math.min(block, bytes.length - at);
      int header = (n << 1) | 1; // an original (uncompressed) chunk of n bytes
      out.write(header & 0xFF);
      out.write((header >> 8) & 0xFF);
      out.write((header >> 16) & 0xFF);
      out.write(bytes, at, n);
    }
    return out.toByteArray();
  }
}
