package dev.prefetch.parquet.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.spi.ByteArrayPool;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

class HeapSnappyCodecsTest {

  private final HeapSnappyCodecs codecs =
      new HeapSnappyCodecs(HadoopCodecs.newFactory(new Configuration(), 0), new ByteArrayPool());

  private static byte[] page() {
    byte[] bytes = new byte[100_000];
    Random random = new Random(7);
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (random.nextInt(16) + (i % 64 == 0 ? 100 : 0));
    }
    return bytes;
  }

  @Test
  void aSnappyPageDecompressesToTheBytesParquetHadoopGives() throws IOException {
    byte[] page = page();
    byte[] compressed = Snappy.compress(page);
    BytesInputDecompressor ours = codecs.getDecompressor(CompressionCodecName.SNAPPY);
    BytesInputDecompressor library =
        HadoopCodecs.newFactory(new Configuration(), 0)
            .getDecompressor(CompressionCodecName.SNAPPY);

    byte[] decoded = ours.decompress(BytesInput.from(compressed), page.length).toByteArray();

    assertThat(decoded).isEqualTo(page);
    assertThat(library.decompress(BytesInput.from(compressed), page.length).toByteArray())
        .isEqualTo(decoded);
  }

  @Test
  void aSnappyPageReadFromTheMiddleOfABufferDecompresses() throws IOException {
    byte[] page = page();
    byte[] compressed = Snappy.compress(page);
    byte[] chunk = new byte[compressed.length + 20];
    System.arraycopy(compressed, 0, chunk, 10, compressed.length);

    byte[] decoded =
        codecs
            .getDecompressor(CompressionCodecName.SNAPPY)
            .decompress(BytesInput.from(chunk, 10, compressed.length), page.length)
            .toByteArray();

    assertThat(decoded).isEqualTo(page);
  }

  @Test
  void aPageHeaderSizeThatDisagreesWithTheSnappyBlockIsRejected() throws IOException {
    byte[] compressed = Snappy.compress(page());
    BytesInputDecompressor ours = codecs.getDecompressor(CompressionCodecName.SNAPPY);

    assertThatThrownBy(() -> ours.decompress(BytesInput.from(compressed), 1000))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("decompresses to 100000 bytes, its header says 1000");
  }

  @Test
  void aTruncatedSnappyBlockFailsWithAnIoException() throws IOException {
    byte[] compressed = Snappy.compress(page());
    byte[] truncated = java.util.Arrays.copyOf(compressed, compressed.length / 2);
    BytesInputDecompressor ours = codecs.getDecompressor(CompressionCodecName.SNAPPY);

    assertThatThrownBy(() -> ours.decompress(BytesInput.from(truncated), 100_000))
        .isInstanceOf(IOException.class);
  }

  @Test
  void otherCodecsDecompressAsParquetHadoopsDo() throws IOException {
    byte[] page = page();
    BytesInput compressed =
        BytesInput.copy(
            HadoopCodecs.newFactory(new Configuration(), 0)
                .getCompressor(CompressionCodecName.GZIP)
                .compress(BytesInput.from(page)));

    byte[] decoded =
        codecs
            .getDecompressor(CompressionCodecName.GZIP)
            .decompress(compressed, page.length)
            .toByteArray();

    assertThat(decoded).isEqualTo(page);
  }

  @Test
  void aPageClaimingMoreThanItsCodecCanExpandToFailsBeforeAnythingIsAllocated() {
    BytesInput tiny = BytesInput.from(new byte[100]);
    for (CompressionCodecName codec :
        new CompressionCodecName[] {
          CompressionCodecName.GZIP, CompressionCodecName.SNAPPY, CompressionCodecName.ZSTD
        }) {
      BytesInputDecompressor ours = codecs.getDecompressor(codec);
      // 2 GiB from 100 bytes: no codec expands that far, and allocating it would exhaust the heap
      assertThatThrownBy(() -> ours.decompress(tiny, Integer.MAX_VALUE - 8))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(codec + " page of 100 bytes declares " + (Integer.MAX_VALUE - 8));
      assertThatThrownBy(() -> ours.decompress(tiny, -1)).isInstanceOf(IOException.class);
    }
  }
}
