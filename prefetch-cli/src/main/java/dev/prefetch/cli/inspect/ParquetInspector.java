package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.parquet.ParquetFooters;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/** What a Parquet file holds, from its footer (and the first page header of each chunk). */
public final class ParquetInspector {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ParquetInspector() {}

  /** Rows of the file, or of {@code rowGroups} when given, from the footer index only. */
  public static long rows(Path path, Configuration conf, List<Integer> rowGroups)
      throws IOException {
    ParquetFooters.Selection selection =
        ParquetFooters.readRowGroups(path, conf, rowGroups == null ? List.of() : rowGroups);
    if (rowGroups == null) {
      return selection.rows();
    }
    long rows = 0;
    for (BlockMetaData block : selection.metadata().getBlocks()) {
      rows += block.getRowCount();
    }
    return rows;
  }

  /** The file's own type of each top-level column, by name, on one line each. */
  public static Map<String, String> fileTypes(Path path, Configuration conf) throws IOException {
    MessageType schema =
        ParquetFooters.readRowGroups(path, conf, List.of())
            .metadata()
            .getFileMetaData()
            .getSchema();
    Map<String, String> types = new java.util.LinkedHashMap<>();
    for (Type field : schema.getFields()) {
      types.put(field.getName(), oneLine(field.toString()));
    }
    return types;
  }

  /**
   * The row groups of the file (all, or {@code rowGroups} decoded alone through the footer index):
   * rows, offsets, sizes, and per column chunk its codec, encodings, statistics and which of page
   * index, bloom filter and page CRC it has.
   */
  public static ObjectNode meta(String name, Path path, Configuration conf, List<Integer> rowGroups)
      throws IOException {
    ParquetMetadata metadata;
    int[] positions;
    int rowGroupCount;
    long rows;
    if (rowGroups == null) {
      metadata = ParquetFooters.read(path, conf);
      rowGroupCount = metadata.getBlocks().size();
      positions = new int[rowGroupCount];
      rows = 0;
      for (int i = 0; i < rowGroupCount; i++) {
        positions[i] = i;
        rows += metadata.getBlocks().get(i).getRowCount();
      }
    } else {
      ParquetFooters.Selection selection = ParquetFooters.readRowGroups(path, conf, rowGroups);
      metadata = selection.metadata();
      positions = selection.rowGroups();
      rowGroupCount = selection.rowGroupCount();
      rows = selection.rows();
    }
    ObjectNode root = NODES.objectNode();
    root.put("file", name);
    root.put("format", "parquet");
    root.put("rows", rows);
    root.put("rowGroups", rowGroupCount);
    root.put("createdBy", metadata.getFileMetaData().getCreatedBy());
    ArrayNode groups = root.putArray("rowGroupDetails");
    try (FSDataInputStream in = path.getFileSystem(conf).open(path)) {
      for (int b = 0; b < metadata.getBlocks().size(); b++) {
        groups.add(rowGroup(positions[b], metadata.getBlocks().get(b), in, name));
      }
    }
    return root;
  }

  private static ObjectNode rowGroup(
      int position, BlockMetaData block, FSDataInputStream in, String name) throws IOException {
    ObjectNode group = NODES.objectNode();
    group.put("rowGroup", position);
    group.put("rows", block.getRowCount());
    group.put("offset", block.getStartingPos());
    group.put("compressedBytes", block.getCompressedSize());
    group.put("uncompressedBytes", block.getTotalByteSize());
    ArrayNode columns = group.putArray("columns");
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      ObjectNode column = NODES.objectNode();
      column.put("column", chunk.getPath().toDotString());
      column.put(
          "type",
          chunk.getPrimitiveType().getPrimitiveTypeName().name()
              + (chunk.getPrimitiveType().getLogicalTypeAnnotation() == null
                  ? ""
                  : " " + chunk.getPrimitiveType().getLogicalTypeAnnotation()));
      column.put("codec", chunk.getCodec().name());
      TreeSet<String> encodings = new TreeSet<>();
      chunk.getEncodings().forEach(e -> encodings.add(e.name()));
      column.put("encodings", String.join(",", encodings));
      column.put("offset", chunk.getStartingPos());
      column.put("compressedBytes", chunk.getTotalSize());
      column.put("uncompressedBytes", chunk.getTotalUncompressedSize());
      column.put("values", chunk.getValueCount());
      Statistics<?> stats = chunk.getStatistics();
      if (stats != null && !stats.isEmpty() && stats.isNumNullsSet()) {
        column.put("nulls", stats.getNumNulls());
      } else {
        column.putNull("nulls");
      }
      if (stats != null && stats.hasNonNullValue()) {
        column.put("min", stats.minAsString());
        column.put("max", stats.maxAsString());
      } else {
        column.putNull("min");
        column.putNull("max");
      }
      column.put("columnIndex", chunk.getColumnIndexReference() != null);
      column.put("offsetIndex", chunk.getOffsetIndexReference() != null);
      column.put("bloomFilter", chunk.getBloomFilterOffset() >= 0);
      column.put("crc", firstPageHasCrc(in, chunk, name, position));
      columns.add(column);
    }
    return group;
  }

  /** Whether the chunk's first page header carries a CRC (writers set it for all or none). */
  private static boolean firstPageHasCrc(
      FSDataInputStream in, ColumnChunkMetaData chunk, String name, int rowGroup)
      throws IOException {
    in.seek(chunk.getStartingPos());
    try {
      PageHeader header = Util.readPageHeader((InputStream) in);
      return header.isSetCrc();
    } catch (IOException e) {
      throw new dev.prefetch.CorruptFileException(
          name
              + ": row group "
              + rowGroup
              + " column "
              + chunk.getPath().toDotString()
              + ": no page header at offset "
              + chunk.getStartingPos()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  static String oneLine(String text) {
    return text.strip().replaceAll("\\s+", " ");
  }
}
