package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.CorruptFileException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Row-group metadata decoded through the footer index equals parquet-hadoop's full parse of the
 * same footer, field by field, on generated wide files.
 */
class SelectiveFooterDecoderTest {

  private static final int[] SAMPLE = {0, 1, 7, 13, 19};

  @TempDir static Path dir;

  /** Files are written once per spec: writing wide files dominates this class's time. */
  private static final Map<WideFiles.Spec, org.apache.hadoop.fs.Path> FILES = new HashMap<>();

  static Stream<Arguments> wideFiles() {
    return Stream.of(
        Arguments.of(
            "statistics and page index, nested", new WideFiles.Spec(300, 20, 12, true, true)),
        Arguments.of(
            "no statistics, no column index", new WideFiles.Spec(300, 20, 12, false, false)),
        Arguments.of("dictionary pages, nested", new WideFiles.Spec(40, 20, 12, true, true, true)));
  }

  private static synchronized org.apache.hadoop.fs.Path write(WideFiles.Spec spec)
      throws Exception {
    org.apache.hadoop.fs.Path file = FILES.get(spec);
    if (file == null) {
      file =
          WideFiles.write(
              new org.apache.hadoop.fs.Path(
                  dir.resolve("wide-" + FILES.size() + ".parquet").toUri()),
              spec);
      FILES.put(spec, file);
    }
    return file;
  }

  /** parquet-hadoop's own full footer parse (what ParquetFileReader.readFooter runs). */
  static ParquetMetadata fullParse(org.apache.hadoop.fs.Path file) throws Exception {
    return new ParquetMetadataConverter()
        .readParquetMetadata(
            new ByteArrayInputStream(WideFiles.footerArray(file)),
            ParquetMetadataConverter.NO_FILTER);
  }

  private static SelectiveFooterDecoder decoder(org.apache.hadoop.fs.Path file) throws Exception {
    ByteBuffer footer = WideFiles.footer(file).metadata();
    return new SelectiveFooterDecoder(
        footer, FooterIndex.build(footer, file.toString()), file.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wideFiles")
  void rowGroupDecodedThroughTheIndexEqualsTheFullParse(String name, WideFiles.Spec spec)
      throws Exception {
    org.apache.hadoop.fs.Path file = write(spec);
    ParquetMetadata full = fullParse(file);
    SelectiveFooterDecoder decoder = decoder(file);

    assertThat(full.getBlocks()).hasSize(spec.rowGroups());
    assertThat(decoder.index().rowGroupCount()).isEqualTo(spec.rowGroups());
    for (int k : SAMPLE) {
      ParquetMetadata one = decoder.decode(new int[] {k}, null);
      assertThat(one.getBlocks()).hasSize(1);
      assertSameBlock(full.getBlocks().get(k), one.getBlocks().get(0));
      assertThat(one.getFileMetaData().getSchema()).isEqualTo(full.getFileMetaData().getSchema());
      assertThat(one.getFileMetaData().getKeyValueMetaData())
          .isEqualTo(full.getFileMetaData().getKeyValueMetaData())
          .containsEntry("writer.note", "wide " + spec.columns());
      assertThat(one.getFileMetaData().getCreatedBy())
          .isEqualTo(full.getFileMetaData().getCreatedBy());
      assertThat(
              one.getFileMetaData()
                  .getSchema()
                  .getColumns()
                  .get(0)
                  .getPrimitiveType()
                  .columnOrder())
          .isEqualTo(
              full.getFileMetaData()
                  .getSchema()
                  .getColumns()
                  .get(0)
                  .getPrimitiveType()
                  .columnOrder());
    }
  }

  /** The file's footer rewritten by {@code edit}, through parquet-format's own Thrift classes. */
  private static byte[] rewrittenFooter(
      org.apache.hadoop.fs.Path file, java.util.function.Consumer<FileMetaData> edit)
      throws Exception {
    FileMetaData metadata =
        Util.readFileMetaData(new ByteArrayInputStream(WideFiles.footerArray(file)));
    edit.accept(metadata);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Util.writeFileMetaData(metadata, out);
    return out.toByteArray();
  }

  @Test
  void footerWithoutPageIndexesDecodesLikeTheFullParse() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(300, 20, 12, true, true));
    byte[] footer =
        rewrittenFooter(
            file,
            metadata -> {
              for (RowGroup rowGroup : metadata.getRow_groups()) {
                for (ColumnChunk chunk : rowGroup.getColumns()) {
                  chunk.unsetColumn_index_offset();
                  chunk.unsetColumn_index_length();
                  chunk.unsetOffset_index_offset();
                  chunk.unsetOffset_index_length();
                }
              }
            });
    ParquetMetadata full =
        new ParquetMetadataConverter()
            .readParquetMetadata(
                new ByteArrayInputStream(footer), ParquetMetadataConverter.NO_FILTER);
    SelectiveFooterDecoder decoder =
        new SelectiveFooterDecoder(
            ByteBuffer.wrap(footer),
            FooterIndex.build(ByteBuffer.wrap(footer), "rewritten"),
            "rewritten");

    for (int k : SAMPLE) {
      BlockMetaData block = decoder.decode(new int[] {k}, null).getBlocks().get(0);
      assertSameBlock(full.getBlocks().get(k), block);
      assertThat(block.getColumns().get(0).getOffsetIndexReference()).isNull();
    }
  }

  @Test
  void rowGroupsWithoutOrdinalsGetTheirPositions() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));
    byte[] footer =
        rewrittenFooter(
            file,
            metadata -> {
              for (RowGroup rowGroup : metadata.getRow_groups()) {
                rowGroup.unsetOrdinal();
              }
            });
    SelectiveFooterDecoder decoder =
        new SelectiveFooterDecoder(
            ByteBuffer.wrap(footer),
            FooterIndex.build(ByteBuffer.wrap(footer), "legacy"),
            "legacy");

    ParquetMetadata metadata = decoder.decode(new int[] {1, 4}, null);

    assertThat(metadata.getBlocks()).extracting(BlockMetaData::getOrdinal).containsExactly(1, 4);
    assertThat(metadata.getBlocks())
        .extracting(BlockMetaData::getRowIndexOffset)
        .containsExactly(25L, 100L);
  }

  @Test
  void projectedDecodeKeepsOnlyTheChosenChunksWithTheSameMetadata() throws Exception {
    WideFiles.Spec spec = new WideFiles.Spec(300, 20, 12, true, true);
    org.apache.hadoop.fs.Path file = write(spec);
    ParquetMetadata full = fullParse(file);
    SelectiveFooterDecoder decoder = decoder(file);
    List<ColumnPath> projection =
        List.of(
            ColumnPath.get("c299"),
            ColumnPath.get("c5"),
            ColumnPath.get("n", "list", "element"),
            ColumnPath.get("s"));

    ParquetMetadata projected = decoder.decode(new int[] {13, 2}, projection);

    assertThat(projected.getBlocks()).hasSize(2);
    int[] chosen = {13, 2};
    for (int i = 0; i < 2; i++) {
      BlockMetaData expected = full.getBlocks().get(chosen[i]);
      BlockMetaData actual = projected.getBlocks().get(i);
      assertThat(actual.getRowIndexOffset()).isEqualTo(expected.getRowIndexOffset());
      assertThat(actual.getOrdinal()).isEqualTo(chosen[i]);
      assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
      List<String> paths = new ArrayList<>();
      for (ColumnChunkMetaData column : actual.getColumns()) {
        paths.add(column.getPath().toDotString());
        ColumnChunkMetaData same =
            expected.getColumns().stream()
                .filter(c -> c.getPath().equals(column.getPath()))
                .findFirst()
                .orElseThrow();
        assertSameColumn(same, column);
      }
      // schema (leaf) order, not projection order
      assertThat(paths).containsExactly("c5", "c299", "s", "n.list.element");
    }
  }

  @Test
  void projectionFindsLeavesThatShareANameInDifferentGroups() throws Exception {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message m { required group a { required int64 x; } optional group b {"
                + " required int64 x; required int64 y; } required int64 x; }");
    Path local = dir.resolve("same-names.parquet");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(local)).withType(schema).build()) {
      SimpleGroupFactory groups = new SimpleGroupFactory(schema);
      for (long i = 0; i < 10; i++) {
        Group row = groups.newGroup();
        row.addGroup("a").append("x", i);
        row.addGroup("b").append("x", i * 2).append("y", i * 3);
        row.append("x", i * 4);
        writer.write(row);
      }
    }
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(local.toUri());
    ParquetMetadata full = fullParse(file);

    ParquetMetadata projected =
        decoder(file).decode(new int[] {0}, List.of(ColumnPath.get("x"), ColumnPath.get("b", "x")));

    List<ColumnChunkMetaData> columns = projected.getBlocks().get(0).getColumns();
    assertThat(columns).extracting(c -> c.getPath().toDotString()).containsExactly("b.x", "x");
    assertSameColumn(full.getBlocks().get(0).getColumns().get(1), columns.get(0));
    assertSameColumn(full.getBlocks().get(0).getColumns().get(3), columns.get(1));
  }

  @Test
  void rowRangeChoosesTheOverlappingRowGroups() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));
    SelectiveFooterDecoder decoder = decoder(file);

    ParquetMetadata metadata = decoder.decodeRowRange(49, 27, List.of(ColumnPath.get("c1")));

    assertThat(metadata.getBlocks())
        .extracting(BlockMetaData::getRowIndexOffset)
        .containsExactly(25L, 50L, 75L);
    assertThat(metadata.getBlocks()).extracting(BlockMetaData::getOrdinal).containsExactly(1, 2, 3);
  }

  @Test
  void emptyProjectionKeepsOneChunkSoTheBlockStaysUsable() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));

    ParquetMetadata metadata = decoder(file).decode(new int[] {2}, List.of());

    assertThat(metadata.getBlocks().get(0).getColumns()).hasSize(1);
    assertThat(metadata.getBlocks().get(0).getRowCount()).isEqualTo(25);
  }

  @Test
  void unknownColumnsAndRowGroupsAreCallerErrors() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));
    SelectiveFooterDecoder decoder = decoder(file);

    assertThatThrownBy(() -> decoder.decode(new int[] {6}, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row group 6 does not exist");
    assertThatThrownBy(() -> decoder.decode(new int[] {0}, List.of(ColumnPath.get("nope"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column nope is not in");
  }

  @Test
  void corruptBytesInsideARowGroupAreACorruptFileError() throws Exception {
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));
    byte[] footer = WideFiles.footerArray(file);
    FooterIndex index = FooterIndex.build(ByteBuffer.wrap(footer), "f");
    // a well-formed struct of the wrong shape: the first row group's bytes replaced by a stop byte
    // and padding would break the index, so instead damage a string inside a path
    int start = index.rowGroupStart(1);
    byte[] damaged = footer.clone();
    for (int i = start; i < index.rowGroupEnd(1); i++) {
      if (damaged[i] == 'c' && damaged[i - 1] == 2) { // the 2-byte path "c0" .. "c9"
        damaged[i] = (byte) 'x';
      }
    }
    SelectiveFooterDecoder decoder =
        new SelectiveFooterDecoder(ByteBuffer.wrap(damaged), index, "damaged.parquet");

    assertThat(decoder.decode(new int[] {0}, null).getBlocks()).hasSize(1);
    assertThatThrownBy(() -> decoder.decode(new int[] {1}, null))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("damaged.parquet")
        .hasMessageContaining("row group");
  }

  static void assertSameBlock(BlockMetaData expected, BlockMetaData actual) {
    assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
    assertThat(actual.getRowIndexOffset()).isEqualTo(expected.getRowIndexOffset());
    assertThat(actual.getOrdinal()).isEqualTo(expected.getOrdinal());
    assertThat(actual.getTotalByteSize()).isEqualTo(expected.getTotalByteSize());
    assertThat(actual.getStartingPos()).isEqualTo(expected.getStartingPos());
    assertThat(actual.getCompressedSize()).isEqualTo(expected.getCompressedSize());
    assertThat(actual.getPath()).isEqualTo(expected.getPath());
    assertThat(actual.getColumns()).hasSameSizeAs(expected.getColumns());
    for (int c = 0; c < expected.getColumns().size(); c++) {
      assertSameColumn(expected.getColumns().get(c), actual.getColumns().get(c));
    }
  }

  static void assertSameColumn(ColumnChunkMetaData expected, ColumnChunkMetaData actual) {
    String column = expected.getPath().toDotString();
    assertThat(actual.getPath()).as(column).isEqualTo(expected.getPath());
    assertThat(actual.getPrimitiveType()).as(column).isEqualTo(expected.getPrimitiveType());
    assertThat(actual.getCodec()).as(column).isEqualTo(expected.getCodec());
    assertThat(actual.getEncodings()).as(column).isEqualTo(expected.getEncodings());
    if (expected.getEncodingStats() == null) {
      assertThat(actual.getEncodingStats()).as(column).isNull();
    } else {
      EncodingStats e = expected.getEncodingStats();
      EncodingStats a = actual.getEncodingStats();
      assertThat(a.getDictionaryEncodings()).as(column).isEqualTo(e.getDictionaryEncodings());
      assertThat(a.getDataEncodings()).as(column).isEqualTo(e.getDataEncodings());
      for (Encoding encoding : Encoding.values()) {
        assertThat(a.getNumDictionaryPagesEncodedAs(encoding))
            .as(column)
            .isEqualTo(e.getNumDictionaryPagesEncodedAs(encoding));
        assertThat(a.getNumDataPagesEncodedAs(encoding))
            .as(column)
            .isEqualTo(e.getNumDataPagesEncodedAs(encoding));
      }
    }
    assertThat(actual.getFirstDataPageOffset())
        .as(column)
        .isEqualTo(expected.getFirstDataPageOffset());
    assertThat(actual.getDictionaryPageOffset())
        .as(column)
        .isEqualTo(expected.getDictionaryPageOffset());
    assertThat(actual.getStartingPos()).as(column).isEqualTo(expected.getStartingPos());
    assertThat(actual.getValueCount()).as(column).isEqualTo(expected.getValueCount());
    assertThat(actual.getTotalSize()).as(column).isEqualTo(expected.getTotalSize());
    assertThat(actual.getTotalUncompressedSize())
        .as(column)
        .isEqualTo(expected.getTotalUncompressedSize());
    assertThat(actual.getStatistics()).as(column).isEqualTo(expected.getStatistics());
    assertThat(actual.getStatistics().isEmpty())
        .as(column)
        .isEqualTo(expected.getStatistics().isEmpty());
    assertThat(actual.getStatistics().getNumNulls())
        .as(column)
        .isEqualTo(expected.getStatistics().getNumNulls());
    assertSameReference(
        column, expected.getColumnIndexReference(), actual.getColumnIndexReference());
    assertSameReference(
        column, expected.getOffsetIndexReference(), actual.getOffsetIndexReference());
    assertThat(actual.getBloomFilterOffset()).as(column).isEqualTo(expected.getBloomFilterOffset());
    assertThat(actual.getRowGroupOrdinal()).as(column).isEqualTo(expected.getRowGroupOrdinal());
    if (expected.getSizeStatistics() == null) {
      assertThat(actual.getSizeStatistics()).as(column).isNull();
    } else {
      assertThat(actual.getSizeStatistics().getDefinitionLevelHistogram())
          .as(column)
          .isEqualTo(expected.getSizeStatistics().getDefinitionLevelHistogram());
      assertThat(actual.getSizeStatistics().getRepetitionLevelHistogram())
          .as(column)
          .isEqualTo(expected.getSizeStatistics().getRepetitionLevelHistogram());
      assertThat(actual.getSizeStatistics().getUnencodedByteArrayDataBytes())
          .as(column)
          .isEqualTo(expected.getSizeStatistics().getUnencodedByteArrayDataBytes());
    }
  }

  private static void assertSameReference(
      String column, IndexReference expected, IndexReference actual) {
    if (expected == null) {
      assertThat(actual).as(column).isNull();
    } else {
      assertThat(actual).as(column).isNotNull();
      assertThat(actual.getOffset()).as(column).isEqualTo(expected.getOffset());
      assertThat(actual.getLength()).as(column).isEqualTo(expected.getLength());
    }
  }

  @Test
  void fullParseOfTheSameFooterStillWorks() throws Exception {
    // guards the test itself: the comparison baseline really parses every row group
    org.apache.hadoop.fs.Path file = write(new WideFiles.Spec(10, 6, 25, true, false));
    ParquetMetadata full = fullParse(file);
    assertThat(full.getBlocks()).hasSize(6);
    assertThat(full.getBlocks().get(3).getRowIndexOffset()).isEqualTo(75);
    assertThat(ParquetMetadataConverter.NO_FILTER).isNotNull();
  }
}
