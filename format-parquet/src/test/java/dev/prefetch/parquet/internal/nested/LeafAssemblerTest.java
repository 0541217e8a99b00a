package dev.prefetch.parquet.internal.nested;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.StructVector;
import dev.prefetch.parquet.internal.flat.ColumnAdapters;
import dev.prefetch.parquet.internal.page.ChunkPages;
import dev.prefetch.parquet.internal.page.PlainIntPages;
import dev.prefetch.spi.VectorArrayPool;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;

/**
 * A leaf of a nested column over its pages: values decoded per page into one vector, row seeks
 * across pages a filtered read left out, and a clear failure past the chunk's last entry.
 */
class LeafAssemblerTest {

  /** {@code required group s { required int32 x; }}: one entry per row, no levels stored. */
  private static final ColumnDescriptor X =
      MessageTypeParser.parseMessageType("message m { required group s { required int32 x; } }")
          .getColumns()
          .get(0);

  private static LeafAssembler<?> leaf(List<DataPage> pages) {
    PrimitiveType type = X.getPrimitiveType();
    LeafAssembler<?> leaf =
        Assembler.leaf(
            -1, X, ColumnAdapters.forColumn(type, DataType.int32(), VectorArrayPool.none()));
    leaf.bind(new ChunkPages(X, PlainIntPages.reader(pages), null));
    return leaf;
  }

  @Test
  void valuesOfSeveralPagesEndUpInOneVector() {
    LeafAssembler<?> leaf = leaf(List.of(page(0, 3, -1), page(3, 4, -1)));
    for (int i = 0; i < 7; i++) {
      leaf.readSlot();
    }

    IntVector vector = (IntVector) leaf.finish();

    assertThat(vector.size()).isEqualTo(7);
    assertThat(vector.values()).startsWith(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void aSeekCrossesThePagesAFilteredReadLeftOut() {
    LeafAssembler<?> leaf = leaf(List.of(page(0, 5, 0), page(40, 5, 40)));
    leaf.seekRow(3);
    leaf.readSlot();
    leaf.seekRow(42);
    leaf.readSlot();
    leaf.readSlot();

    assertThat(((IntVector) leaf.finish()).values()).startsWith(3, 42, 43);
  }

  @Test
  void aReadIntoAGapFails() {
    LeafAssembler<?> leaf = leaf(List.of(page(0, 2, 0), page(40, 2, 40)));
    leaf.readSlot();
    leaf.readSlot();

    assertThatThrownBy(leaf::readSlot)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rows 2 to 39");
  }

  @Test
  void readingPastTheLastEntryFailsAlsoUnderANullableStruct() {
    LeafAssembler<?> direct = leaf(List.of(page(0, 1, -1)));
    direct.readSlot();
    Assembler struct =
        Assembler.struct(
            DataType.struct(List.of(new dev.prefetch.batch.Field("x", DataType.int32(), false))),
            1,
            List.of(leaf(List.of(page(0, 1, -1)))));
    struct.readSlot();

    assertThatThrownBy(direct::readSlot)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ended before row 1");
    // the struct sees definition level 0 past the end, a null, and must not take it for one
    assertThatThrownBy(struct::readSlot)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ended before row 1");
    assertThat(struct.finish()).isInstanceOf(StructVector.class);
  }

  private static DataPage page(int firstValue, int rows, long firstRowIndex) {
    return PlainIntPages.page(X, firstValue, rows, firstRowIndex);
  }
}
