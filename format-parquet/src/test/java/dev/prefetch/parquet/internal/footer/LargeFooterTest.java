package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A footer over parquet-hadoop's default Thrift message limit (100 MB) still opens: the index walks
 * it without Thrift, and each decoded span carries its own, smaller limits.
 */
class LargeFooterTest {

  private static final int TARGET_BYTES = 110 << 20;

  @TempDir Path dir;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void footerLargerThanTheDefaultThriftLimitIndexesAndDecodesARowGroup() throws Exception {
    org.apache.hadoop.fs.Path file =
        WideFiles.write(
            new org.apache.hadoop.fs.Path(dir.resolve("seed.parquet").toUri()),
            new WideFiles.Spec(40, 2, 10, true, false));
    byte[] seed = WideFiles.footerArray(file);
    FooterIndex seedIndex = FooterIndex.build(ByteBuffer.wrap(seed), "seed");
    ParquetMetadata seedMetadata =
        new ParquetMetadataConverter()
            .readParquetMetadata(
                new ByteArrayInputStream(seed), ParquetMetadataConverter.NO_FILTER);

    // the seed footer with its row_groups list replaced by many copies of its first row group
    int rowGroupStart = seedIndex.rowGroupStart(0);
    int rowGroupLength = seedIndex.rowGroupEnd(0) - rowGroupStart;
    int copies = TARGET_BYTES / rowGroupLength + 1;
    int listStart = seedIndex.fieldStart(FooterIndex.FIELD_ROW_GROUPS);
    int listEnd = seedIndex.fieldEnd(FooterIndex.FIELD_ROW_GROUPS);
    byte[] header = new CompactBytes().listHeader(copies, CompactCursor.STRUCT).toByteArray();
    long size =
        (long) listStart + header.length + (long) copies * rowGroupLength + (seed.length - listEnd);
    byte[] big = new byte[Math.toIntExact(size)];
    int at = 0;
    System.arraycopy(seed, 0, big, at, listStart);
    at += listStart;
    System.arraycopy(header, 0, big, at, header.length);
    at += header.length;
    for (int i = 0; i < copies; i++) {
      System.arraycopy(seed, rowGroupStart, big, at, rowGroupLength);
      at += rowGroupLength;
    }
    System.arraycopy(seed, listEnd, big, at, seed.length - listEnd);
    assertThat(big.length).isGreaterThan(100 << 20);

    FooterIndex index = FooterIndex.build(ByteBuffer.wrap(big), "big");
    SelectiveFooterDecoder decoder = new SelectiveFooterDecoder(ByteBuffer.wrap(big), index, "big");
    ParquetMetadata last = decoder.decode(new int[] {copies - 1}, null);

    assertThat(index.rowGroupCount()).isEqualTo(copies);
    BlockMetaData expected = seedMetadata.getBlocks().get(0);
    BlockMetaData actual = last.getBlocks().get(0);
    assertThat(actual.getRowIndexOffset()).isEqualTo((copies - 1) * 10L);
    assertThat(actual.getColumns()).hasSameSizeAs(expected.getColumns());
    for (int c = 0; c < expected.getColumns().size(); c++) {
      SelectiveFooterDecoderTest.assertSameColumn(
          expected.getColumns().get(c), actual.getColumns().get(c));
    }
    System.out.printf(
        "a %,d-byte footer with %,d row groups indexed and one decoded%n", big.length, copies);
  }
}
