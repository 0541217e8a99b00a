package dev.prefetch.parquet.internal.footer;

import static dev.prefetch.parquet.internal.thrift.CompactCursor.BINARY;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.BOOLEAN_FALSE;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.BOOLEAN_TRUE;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.BYTE;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.DOUBLE;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I16;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I32;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I64;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.LIST;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.MAP;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.SET;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.STRUCT;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.UUID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.CorruptFileException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FooterIndexBuilderTest {

  private static final String FILE = "test.parquet";

  /** version, schema, num_rows, row_groups(3 groups), created_by: in the written order. */
  private static CompactBytes orderedFooter() {
    return CompactBytes.footerHead(2, 60, 3)
        .append(CompactBytes.rowGroup(10, 4, 0))
        .append(CompactBytes.rowGroup(20, 400, 1))
        .append(CompactBytes.rowGroup(30, 900, 2))
        .field(2, BINARY)
        .binary("writer 1.0")
        .stop();
  }

  private static FooterIndex build(byte[] bytes) throws CorruptFileException {
    return FooterIndex.build(ByteBuffer.wrap(bytes), FILE);
  }

  @Test
  void wellFormedFooterYieldsRowGroupSpansRowsAndOffsets() throws Exception {
    byte[] bytes = orderedFooter().toByteArray();
    FooterIndex index = build(bytes);

    assertThat(index.footerLength()).isEqualTo(bytes.length);
    assertThat(index.version()).isEqualTo(2);
    assertThat(index.numRows()).isEqualTo(60);
    assertThat(index.rowGroupCount()).isEqualTo(3);
    assertThat(index.rowGroupRowCount(1)).isEqualTo(20);
    assertThat(index.rowGroupFirstRow(0)).isZero();
    assertThat(index.rowGroupFirstRow(2)).isEqualTo(30);
    assertThat(index.totalRowGroupRows()).isEqualTo(60);
    assertThat(index.rowGroupFileOffset(1)).isEqualTo(400);
    assertThat(index.rowGroupCompressedSize(2)).isEqualTo(150);
    assertThat(index.rowGroupOrdinal(2)).isEqualTo(2);
    assertThat(index.hasField(FooterIndex.FIELD_CREATED_BY)).isTrue();
    assertThat(index.hasField(FooterIndex.FIELD_COLUMN_ORDERS)).isFalse();
    assertThat(index.hasEncryption()).isFalse();
    // a row group's span is exactly its struct's bytes
    byte[] second = CompactBytes.rowGroup(20, 400, 1).toByteArray();
    assertThat(Arrays.copyOfRange(bytes, index.rowGroupStart(1), index.rowGroupEnd(1)))
        .isEqualTo(second);
    assertThat(index.rowGroupEnd(0)).isEqualTo(index.rowGroupStart(1));
  }

  @Test
  void fieldsInAnyOrderGiveTheSameIndexValues() throws Exception {
    CompactBytes reversed =
        new CompactBytes()
            .longField(6, BINARY)
            .binary("writer 1.0")
            .longField(4, LIST)
            .listHeader(2, STRUCT)
            .append(CompactBytes.rowGroup(7, 4, 0))
            .append(CompactBytes.rowGroup(8, 100, 1))
            .longField(3, I64)
            .zigzag(15)
            .longField(2, LIST)
            .append(CompactBytes.schemaList())
            .longField(1, I32)
            .zigzag(1)
            .stop();
    FooterIndex index = build(reversed.toByteArray());

    assertThat(index.rowGroupCount()).isEqualTo(2);
    assertThat(index.rowGroupFirstRow(1)).isEqualTo(7);
    assertThat(index.numRows()).isEqualTo(15);
    assertThat(index.version()).isEqualTo(1);
    assertThat(index.fieldStart(FooterIndex.FIELD_CREATED_BY))
        .isLessThan(index.fieldStart(FooterIndex.FIELD_SCHEMA));
  }

  @Test
  void longFormHeaderIsFollowedByDeltasFromItsId() throws Exception {
    // version via long form id 1, then a short delta of 1 must mean schema (id 2)
    CompactBytes bytes =
        new CompactBytes()
            .longField(1, I32)
            .zigzag(1)
            .field(1, LIST)
            .append(CompactBytes.schemaList())
            .longField(4, LIST)
            .listHeader(1, STRUCT)
            .append(CompactBytes.rowGroup(5, 4, 0))
            .longField(3, I64)
            .zigzag(5)
            .field(3, BINARY)
            .binary("w") // 3 + 3 = 6: created_by
            .stop();
    FooterIndex index = build(bytes.toByteArray());

    assertThat(index.hasField(FooterIndex.FIELD_SCHEMA)).isTrue();
    assertThat(index.hasField(FooterIndex.FIELD_CREATED_BY)).isTrue();
    assertThat(index.rowGroupRowCount(0)).isEqualTo(5);
  }

  /** One unknown field of every compact type, each nested where the type allows. */
  private static CompactBytes unknownFieldsOfEveryType(int firstId) {
    CompactBytes b = new CompactBytes();
    int id = firstId;
    b.longField(id++, BOOLEAN_TRUE);
    b.longField(id++, BOOLEAN_FALSE);
    b.longField(id++, BYTE).raw(0x7f);
    b.longField(id++, I16).zigzag(-300);
    b.longField(id++, I32).zigzag(Integer.MIN_VALUE);
    b.longField(id++, I64).zigzag(Long.MAX_VALUE);
    b.longField(id++, DOUBLE).raw(1, 2, 3, 4, 5, 6, 7, 8);
    b.longField(id++, BINARY).binary("unknown");
    b.longField(id++, LIST).listHeader(3, I32).zigzag(1).zigzag(2).zigzag(3);
    b.longField(id++, LIST).listHeader(2, BOOLEAN_TRUE).raw(1, 2);
    b.longField(id++, LIST).listHeader(20, BYTE).raw(new int[20]);
    b.longField(id++, SET).listHeader(2, BINARY).binary("x").binary("y");
    b.longField(id++, MAP)
        .varint(2)
        .raw((BINARY << 4) | STRUCT)
        .binary("k1")
        .field(1, I32)
        .zigzag(5)
        .stop()
        .binary("k2")
        .field(2, LIST)
        .listHeader(1, DOUBLE)
        .raw(0, 0, 0, 0, 0, 0, 0, 0)
        .stop();
    b.longField(id++, MAP).varint(0);
    b.longField(id++, STRUCT)
        .field(1, UUID)
        .raw(new int[16])
        .field(1, STRUCT)
        .field(1, BOOLEAN_TRUE)
        .stop()
        .stop();
    b.longField(id++, UUID).raw(new int[16]);
    return b;
  }

  @Test
  void unknownFieldsOfEveryTypeAreSkippedAtTopLevelAndInRowGroups() throws Exception {
    CompactBytes rowGroup =
        new CompactBytes()
            .append(unknownFieldsOfEveryType(100))
            .longField(1, LIST)
            .listHeader(0, STRUCT)
            .field(1, I64)
            .zigzag(100)
            .field(1, I64)
            .zigzag(9)
            .longField(200, I64)
            .zigzag(1)
            .stop();
    CompactBytes footer =
        new CompactBytes()
            .append(unknownFieldsOfEveryType(20))
            .longField(1, I32)
            .zigzag(1)
            .field(1, LIST)
            .append(CompactBytes.schemaList())
            .field(1, I64)
            .zigzag(9)
            .field(1, LIST)
            .listHeader(1, STRUCT)
            .append(rowGroup)
            .append(unknownFieldsOfEveryType(-40))
            .stop();
    FooterIndex index = build(footer.toByteArray());

    assertThat(index.rowGroupCount()).isEqualTo(1);
    assertThat(index.rowGroupRowCount(0)).isEqualTo(9);
    assertThat(index.rowGroupFileOffset(0)).isEqualTo(FooterIndex.ABSENT);
    assertThat(index.rowGroupOrdinal(0)).isEqualTo(FooterIndex.NO_ORDINAL);
  }

  @Test
  void rowGroupListOfMoreThanFourteenUsesTheLongListHeader() throws Exception {
    CompactBytes footer = CompactBytes.footerHead(1, 40, 40);
    for (int i = 0; i < 40; i++) {
      footer.append(CompactBytes.rowGroup(1, 4 + i, i));
    }
    FooterIndex index = build(footer.stop().toByteArray());

    assertThat(index.rowGroupCount()).isEqualTo(40);
    assertThat(index.rowGroupFirstRow(39)).isEqualTo(39);
    assertThat(index.rowGroupsOverlapping(10, 3)).containsExactly(10, 11, 12);
  }

  @Test
  void overLongVarintIsCorrupt() {
    CompactBytes bytes =
        new CompactBytes()
            .field(1, I32)
            .raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)
            .stop();
    assertThatThrownBy(() -> build(bytes.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(FILE)
        .hasMessageContaining("varint is longer than 10 bytes");
  }

  @Test
  void overLongOrCutVarintInsideASkippedStructIsCorrupt() {
    CompactBytes overLong =
        new CompactBytes()
            .longField(50, STRUCT)
            .field(1, I64)
            .raw(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)
            .raw(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            .stop()
            .stop();
    assertThatThrownBy(() -> build(overLong.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("varint is longer than 10 bytes");
    CompactBytes cut = new CompactBytes().longField(50, STRUCT).field(1, I64).raw(0xff, 0xff);
    assertThatThrownBy(() -> build(cut.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("runs past the end");
  }

  @Test
  void binaryLengthPastTheEndIsCorrupt() {
    CompactBytes bytes =
        new CompactBytes()
            .field(1, I32)
            .zigzag(1)
            .field(5, BINARY)
            .varint(1000)
            .raw('a', 'b')
            .stop();
    assertThatThrownBy(() -> build(bytes.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("runs past the end");
  }

  @Test
  void hugeOrNegativeSizesAreCorruptWithoutAllocating() {
    CompactBytes negativeBinary = new CompactBytes().longField(30, BINARY).varint(-5L).stop();
    CompactBytes hugeList =
        new CompactBytes().longField(4, LIST).raw(0xf0 | STRUCT).varint(Integer.MAX_VALUE).stop();
    CompactBytes hugeMap = new CompactBytes().longField(30, MAP).varint(1L << 40).stop();
    for (CompactBytes bytes : new CompactBytes[] {negativeBinary, hugeList, hugeMap}) {
      assertThatThrownBy(() -> build(bytes.toByteArray()))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("size");
    }
  }

  @Test
  void deepNestingIsCorruptNotAStackOverflow() {
    CompactBytes bytes = new CompactBytes();
    bytes.longField(50, STRUCT);
    for (int i = 0; i < 10_000; i++) {
      bytes.field(1, STRUCT);
    }
    assertThatThrownBy(() -> build(bytes.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("nest deeper");
    CompactBytes lists = new CompactBytes().longField(50, LIST);
    for (int i = 0; i < 10_000; i++) {
      lists.listHeader(1, LIST);
    }
    assertThatThrownBy(() -> build(lists.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("nest deeper");
  }

  @Test
  void everyTruncationOfAValidFooterIsCorrupt() {
    byte[] bytes = orderedFooter().toByteArray();
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> build(cut)).isInstanceOf(CorruptFileException.class);
    }
  }

  @Test
  void missingRequiredFieldsAndWrongTypesAreCorrupt() {
    CompactBytes noRowGroups =
        new CompactBytes()
            .field(1, I32)
            .zigzag(1)
            .field(1, LIST)
            .append(CompactBytes.schemaList())
            .field(1, I64)
            .zigzag(0)
            .stop();
    assertThatThrownBy(() -> build(noRowGroups.toByteArray()))
        .hasMessageContaining("row_groups is missing");
    CompactBytes rowGroupsAsBinary = new CompactBytes().longField(4, BINARY).binary("x").stop();
    assertThatThrownBy(() -> build(rowGroupsAsBinary.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("row_groups has compact type");
    CompactBytes rowGroupWithoutRows =
        new CompactBytes()
            .longField(4, LIST)
            .listHeader(1, STRUCT)
            .field(1, LIST)
            .listHeader(0, STRUCT)
            .stop()
            .stop();
    assertThatThrownBy(() -> build(rowGroupWithoutRows.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("row group 0 lacks a required field");
    CompactBytes trailing = orderedFooter().raw(1, 2, 3);
    assertThatThrownBy(() -> build(trailing.toByteArray()))
        .hasMessageContaining("3 bytes after the end");
  }

  @Test
  void unknownCompactTypeIsCorrupt() {
    CompactBytes bytes = new CompactBytes().raw(0x1e).stop(); // type 14 does not exist
    assertThatThrownBy(() -> build(bytes.toByteArray()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("unknown compact type 14");
  }

  @Test
  void footerInsideALargerBufferIsIndexedRelativeToItsFirstByte() throws Exception {
    byte[] footer = orderedFooter().toByteArray();
    byte[] padded = new byte[footer.length + 20];
    System.arraycopy(footer, 0, padded, 7, footer.length);
    ByteBuffer buffer = ByteBuffer.wrap(padded, 7, footer.length).asReadOnlyBuffer();

    FooterIndex index = FooterIndex.build(buffer, FILE);

    assertThat(index).isEqualTo(build(footer));
  }

  @Test
  void encryptionAlgorithmFieldMarksTheFooterForFallback() throws Exception {
    CompactBytes bytes =
        CompactBytes.footerHead(1, 0, 0).field(4, STRUCT).field(1, STRUCT).stop().stop().stop();
    assertThat(build(bytes.toByteArray()).hasEncryption()).isTrue();
  }

  @Test
  void rowGroupsOverlappingSkipsEmptyRowGroupsAndClampsToTheEnd() throws Exception {
    CompactBytes footer =
        CompactBytes.footerHead(1, 30, 4)
            .append(CompactBytes.rowGroup(10, 4, 0))
            .append(CompactBytes.rowGroup(0, 50, 1))
            .append(CompactBytes.rowGroup(10, 60, 2))
            .append(CompactBytes.rowGroup(10, 90, 3))
            .stop();
    FooterIndex index = build(footer.toByteArray());

    assertThat(index.rowGroupsOverlapping(0, 10)).containsExactly(0);
    assertThat(index.rowGroupsOverlapping(9, 2)).containsExactly(0, 2);
    assertThat(index.rowGroupsOverlapping(10, 1)).containsExactly(2);
    assertThat(index.rowGroupsOverlapping(25, Long.MAX_VALUE)).containsExactly(3);
    assertThat(index.rowGroupsOverlapping(30, 5)).isEmpty();
    assertThat(index.rowGroupsOverlapping(5, 0)).isEmpty();
  }
}
