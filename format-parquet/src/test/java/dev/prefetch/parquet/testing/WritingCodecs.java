package dev.prefetch.parquet.testing;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import io.airlift.compress.lz4.Lz4Compressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;

/**
 * A codec factory for parquet-java's writer ({@code ParquetWriter.Builder.withCodecFactory}) that
 * compresses pages the way other writers do, where parquet-java would not:
 *
 * <ul>
 *   <li>legacy {@code LZ4} in Hadoop's block framing (as parquet-java with Hadoop's Lz4Codec wrote
 *       it) or as one raw LZ4 block (as parquet-cpp before LZ4_RAW and others wrote it);
 *   <li>{@code BROTLI} through brotli4j's encoder;
 *   <li>{@code GZIP} as two concatenated gzip members per page, when asked;
 *   <li>an empty section (a DataPage V2 of nulls only has no data) left empty, 0 bytes, when asked,
 *       as some writers do although the codec would emit a few bytes.
 * </ul>
 *
 * Every other codec is parquet-hadoop's own. Decompression is not offered: the factory writes.
 */
public final class WritingCodecs implements CompressionCodecFactory {

  /** How legacy LZ4 pages are framed. */
  public enum Lz4Framing {
    HADOOP,
    RAW
  }

  private final CompressionCodecFactory delegate = HadoopCodecs.newFactory(new Configuration(), 0);
  private final Lz4Framing lz4;
  private final boolean gzipMembers;
  private final boolean emptyStaysEmpty;

  /**
   * @param lz4 the framing of legacy LZ4 pages
   * @param gzipMembers whether a GZIP page is two concatenated members
   * @param emptyStaysEmpty whether an empty section is written as 0 bytes for every codec
   */
  public WritingCodecs(Lz4Framing lz4, boolean gzipMembers, boolean emptyStaysEmpty) {
    this.lz4 = lz4;
    this.gzipMembers = gzipMembers;
    this.emptyStaysEmpty = emptyStaysEmpty;
  }

  /** Hadoop-framed LZ4, one gzip member, parquet-java's own empty sections. */
  public static WritingCodecs defaults() {
    return new WritingCodecs(Lz4Framing.HADOOP, false, false);
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    switch (codec) {
      case LZ4:
        return new Compressor(
            codec,
            lz4 == Lz4Framing.HADOOP ? WritingCodecs::lz4Hadoop : WritingCodecs::lz4Raw,
            emptyStaysEmpty);
      case BROTLI:
        return new Compressor(codec, WritingCodecs::brotli, emptyStaysEmpty);
      case GZIP:
        if (gzipMembers) {
          return new Compressor(codec, WritingCodecs::gzipTwoMembers, emptyStaysEmpty);
        }
        break;
      default:
        break;
    }
    BytesInputCompressor own = delegate.getCompressor(codec);
    if (!emptyStaysEmpty) {
      return own;
    }
    return new Compressor(codec, bytes -> own.compress(BytesInput.from(bytes)).toByteArray(), true);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    throw new UnsupportedOperationException("a writing factory");
  }

  @Override
  public void release() {
    delegate.release();
  }

  private interface Compression {
    byte[] compress(byte[] bytes) throws IOException;
  }

  private record Compressor(
      CompressionCodecName codec, Compression compression, boolean emptyStaysEmpty)
      implements BytesInputCompressor {
    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      byte[] in = bytes.toByteArray();
      if (in.length == 0 && emptyStaysEmpty) {
        return BytesInput.empty();
      }
      return BytesInput.from(compression.compress(in));
    }

    @Override
    public CompressionCodecName getCodecName() {
      return codec;
    }

    @Override
    public void release() {}
  }

  /** One raw LZ4 block. */
  static byte[] lz4Raw(byte[] in) {
    Lz4Compressor compressor = new Lz4Compressor();
    byte[] out = new byte[compressor.maxCompressedLength(in.length)];
    int n = compressor.compress(in, 0, in.length, out, 0, out.length);
    return Arrays.copyOf(out, n);
  }

  /**
   * Hadoop's block framing: blocks of at most 64 KiB of input (so a large page has several), each
   * its uncompressed length, its compressed length and one raw LZ4 block.
   */
  static byte[] lz4Hadoop(byte[] in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int block = 64 << 10;
    for (int p = 0; p < in.length || p == 0; p += block) {
      byte[] part = Arrays.copyOfRange(in, p, Math.min(in.length, p + block));
      byte[] compressed = lz4Raw(part);
      writeInt(out, part.length);
      writeInt(out, compressed.length);
      out.writeBytes(compressed);
      if (in.length == 0) {
        break;
      }
    }
    return out.toByteArray();
  }

  private static void writeInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }

  static byte[] brotli(byte[] in) throws IOException {
    Brotli4jLoader.ensureAvailability();
    return Encoder.compress(in);
  }

  /** The first half and the second half of the page as two gzip members, back to back. */
  static byte[] gzipTwoMembers(byte[] in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int half = in.length / 2;
    for (int[] range : new int[][] {{0, half}, {half, in.length}}) {
      ByteArrayOutputStream member = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new GZIPOutputStream(member)) {
        gzip.write(in, range[0], range[1] - range[0]);
      }
      out.writeBytes(member.toByteArray());
    }
    return out.toByteArray();
  }
}
