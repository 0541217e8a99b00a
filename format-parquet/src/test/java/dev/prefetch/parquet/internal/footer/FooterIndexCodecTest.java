package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.CorruptFileException;
import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FooterIndexCodecTest {

  private static FooterIndex sampleIndex() throws CorruptFileException {
    CompactBytes footer = CompactBytes.footerHead(1, 1000, 25);
    for (int i = 0; i < 25; i++) {
      footer.append(CompactBytes.rowGroup(40, 4 + 1000L * i, i));
    }
    footer.longField(7, CompactCursor.LIST).listHeader(0, CompactCursor.STRUCT);
    return FooterIndex.build(footer.stop().buffer(), "f");
  }

  @Test
  void encodedIndexDecodesToAnEqualIndex() throws Exception {
    FooterIndex index = sampleIndex();
    byte[] bytes = FooterIndexCodec.encode(index);

    FooterIndex decoded = FooterIndexCodec.decode(ByteBuffer.wrap(bytes), "cache");

    assertThat(decoded).isEqualTo(index);
    assertThat(decoded.rowGroupFirstRow(24)).isEqualTo(960);
    assertThat(decoded.fieldEnd(FooterIndex.FIELD_COLUMN_ORDERS))
        .isEqualTo(index.fieldEnd(FooterIndex.FIELD_COLUMN_ORDERS));
    assertThat(bytes.length).isLessThan(25 * 16 + 64);
  }

  @Test
  void damagedEncodingsAreRejectedOrDecodeToAValidIndex() throws Exception {
    byte[] bytes = FooterIndexCodec.encode(sampleIndex());
    Random random = new Random(7);
    int rejected = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] damaged =
          i % 2 == 0 ? Arrays.copyOf(bytes, random.nextInt(bytes.length)) : bytes.clone();
      if (i % 2 == 1) {
        damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
      }
      try {
        FooterIndex index = FooterIndexCodec.decode(ByteBuffer.wrap(damaged), "cache");
        for (int g = 0; g < index.rowGroupCount(); g++) {
          assertThat(index.rowGroupEnd(g)).isBetween(index.rowGroupStart(g), index.footerLength());
        }
      } catch (CorruptFileException e) {
        assertThat(e).hasMessageContaining("cache: damaged footer index");
        rejected++;
      }
    }
    assertThat(rejected).isGreaterThan(1000);
  }

  @Test
  void foreignBytesAreRejected() {
    assertThatThrownBy(() -> FooterIndexCodec.decode(ByteBuffer.wrap(new byte[] {1, 2}), "x"))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("no footer index magic");
  }
}
