package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;

/**
 * Old writers' BIT_PACKED definition levels take exactly one level's width per value, so a page's
 * value count bounds its level bytes: a count the page cannot hold is corrupt, and must not size
 * the level array the page reader allocates.
 */
class BitPackedLevelsTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType("message m { optional int32 x; }");

  @Test
  void aValueCountTheBitPackedLevelsCannotHoldFailsBeforeTheLevelArrayIsAllocated() {
    ColumnDescriptor column = SCHEMA.getColumns().get(0);
    // 2^30 one-bit levels would take 128 MiB; the page has 16 bytes (and the array would be 4 GiB)
    DataPageV1 page =
        new DataPageV1(
            BytesInput.from(new byte[16]),
            1 << 30,
            16,
            Statistics.createStats(
                new PrimitiveType(
                    PrimitiveType.Repetition.OPTIONAL, PrimitiveType.PrimitiveTypeName.INT32, "x")),
            Encoding.BIT_PACKED,
            Encoding.BIT_PACKED,
            Encoding.PLAIN);
    ChunkPages pages = new ChunkPages(column, PlainIntPages.reader(List.of(page)), null);

    assertThatThrownBy(pages::next)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            (1 << 30) + " BIT_PACKED levels of 1 bits do not fit the page's 16" + " bytes");
  }
}
