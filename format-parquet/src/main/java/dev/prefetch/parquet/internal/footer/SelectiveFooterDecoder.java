package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.ColumnOrder;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.schema.MessageType;
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.protocol.TList;

/**
 * Builds parquet-hadoop's {@link ParquetMetadata} for chosen row groups of a footer by decoding
 * only the file-level fields and those row groups' {@code RowGroup} structs, found through a {@link
 * FooterIndex}; the other row groups' bytes are never read.
 *
 * <p>Column projection: a {@code RowGroup}'s column chunks follow the schema's leaf order (the
 * format requires it), so with a projection only the chunks at the projected leaf positions are
 * decoded and the others are skipped ({@link RowGroupStructs}). Each decoded chunk's {@code
 * path_in_schema} is checked against the leaf it should be; on any mismatch, on a chunk count that
 * differs from the leaf count, or on an encrypted chunk, the whole struct is decoded instead, so a
 * projection can only make decoding cheaper, never different. The resulting {@link BlockMetaData}
 * then holds only the projected columns (so its {@code getCompressedSize()} counts only them);
 * callers that need every column pass a null projection.
 *
 * <p>The file-level fields go through {@link ParquetMetadataConverter#fromParquetMetadata} once;
 * each column chunk through the converter's {@code buildColumnChunkMetaData}, with the same
 * ordinal, bloom filter and index references the converter sets, so statistics, encodings, column
 * orders and index references match a full parse. First rows come from the index. A row group
 * without an {@code ordinal} in the footer gets its position as ordinal.
 *
 * <p>Immutable after construction (the file-level fields are decoded once); safe to share across
 * threads.
 */
public final class SelectiveFooterDecoder {

  private final ByteBuffer footer;
  private final int base;
  private final FooterIndex index;
  private final String file;
  private final List<SchemaElement> schemaElements;
  private final List<KeyValue> keyValues;
  private final String createdBy;
  private final List<ColumnOrder> columnOrders;
  private final ParquetMetadataConverter converter = new ParquetMetadataConverter();
  private final org.apache.parquet.hadoop.metadata.FileMetaData fileMetaData;
  private final MessageType schema;

  /** Primitive (leaf) columns of the schema, in the order of their chunks. */
  private final int leafCount;

  private final RowGroupStructs structs;

  /**
   * Decodes the file-level fields of {@code footer} (the FileMetaData bytes from its position to
   * its limit, the same bytes {@code index} was built from).
   *
   * @throws CorruptFileException if those fields do not decode
   * @throws IllegalArgumentException if the index was built from bytes of another length, or the
   *     footer declares encryption (read those with parquet-hadoop)
   */
  public SelectiveFooterDecoder(ByteBuffer footer, FooterIndex index, String file)
      throws CorruptFileException {
    this.footer = Objects.requireNonNull(footer, "footer is null");
    this.index = Objects.requireNonNull(index, "index is null");
    this.file = Objects.requireNonNull(file, "file is null");
    this.base = footer.position();
    if (footer.remaining() != index.footerLength()) {
      throw new IllegalArgumentException(
          "footer index of "
              + index.footerLength()
              + " bytes does not belong to a footer of "
              + footer.remaining()
              + " bytes: "
              + file);
    }
    if (index.hasEncryption()) {
      throw new IllegalArgumentException(file + ": encrypted footers are read by parquet-hadoop");
    }
    try {
      schemaElements = readList(FooterIndex.FIELD_SCHEMA, SchemaElement::new);
      keyValues =
          index.hasField(FooterIndex.FIELD_KEY_VALUE_METADATA)
              ? readList(FooterIndex.FIELD_KEY_VALUE_METADATA, KeyValue::new)
              : null;
      columnOrders =
          index.hasField(FooterIndex.FIELD_COLUMN_ORDERS)
              ? readList(FooterIndex.FIELD_COLUMN_ORDERS, ColumnOrder::new)
              : null;
      createdBy =
          index.hasField(FooterIndex.FIELD_CREATED_BY)
              ? protocol(
                      index.fieldStart(FooterIndex.FIELD_CREATED_BY),
                      index.fieldEnd(FooterIndex.FIELD_CREATED_BY))
                  .readString()
              : null;
      if (schemaElements.isEmpty()) {
        throw new CorruptFileException(file + ": corrupt Parquet footer: empty schema");
      }
      fileMetaData = convert();
      schema = fileMetaData.getSchema();
    } catch (TException | RuntimeException e) {
      throw corrupt("file metadata", e);
    }
    int leaves = 0;
    for (SchemaElement element : schemaElements) {
      if (element.isSetType()) {
        leaves++;
      }
    }
    leafCount = leaves;
    structs = new RowGroupStructs(footer, base, index, file);
  }

  /** The file's schema. */
  public MessageType schema() {
    return schema;
  }

  public FooterIndex index() {
    return index;
  }

  /**
   * Metadata with only {@code rowGroups} (positions in the footer, in the order given) and, for
   * each, only the chunks of {@code projection} (column paths; null for every column).
   *
   * @throws CorruptFileException if a chosen row group does not decode
   * @throws IllegalArgumentException if a position is out of range or a projected column is not in
   *     the schema
   */
  public ParquetMetadata decode(int[] rowGroups, Collection<ColumnPath> projection)
      throws CorruptFileException {
    List<String>[] selected =
        projection == null ? null : LeafSelection.of(schemaElements, leafCount, projection, file);
    List<RowGroup> decoded = new ArrayList<>(rowGroups.length);
    for (int rowGroup : rowGroups) {
      if (rowGroup < 0 || rowGroup >= index.rowGroupCount()) {
        throw new IllegalArgumentException(
            "row group "
                + rowGroup
                + " does not exist in "
                + file
                + " (it has "
                + index.rowGroupCount()
                + ")");
      }
      decoded.add(structs.decode(rowGroup, selected));
    }
    List<BlockMetaData> blocks = new ArrayList<>(rowGroups.length);
    for (int i = 0; i < rowGroups.length; i++) {
      try {
        blocks.add(toBlock(decoded.get(i), rowGroups[i]));
      } catch (RuntimeException e) {
        throw corrupt("row group " + rowGroups[i], e);
      }
    }
    return new ParquetMetadata(fileMetaData, blocks);
  }

  /**
   * One row group as parquet-hadoop's converter builds it for a plaintext footer (the same calls,
   * in the same order), but against the schema converted once in the constructor instead of once
   * per decode: converting a schema of thousands of columns costs more than a projected row group.
   */
  private BlockMetaData toBlock(RowGroup rowGroup, int position) throws CorruptFileException {
    BlockMetaData block = new BlockMetaData();
    block.setRowCount(rowGroup.getNum_rows());
    block.setTotalByteSize(rowGroup.getTotal_byte_size());
    block.setRowIndexOffset(index.rowGroupFirstRow(position));
    block.setOrdinal(rowGroup.isSetOrdinal() ? rowGroup.getOrdinal() : position);
    List<ColumnChunk> chunks = rowGroup.getColumns();
    String filePath = chunks.isEmpty() ? null : chunks.get(0).getFile_path();
    for (ColumnChunk chunk : chunks) {
      if (!Objects.equals(filePath, chunk.getFile_path())) {
        throw new CorruptFileException(
            file
                + ": row group "
                + position
                + " has column chunks in several files, which is not supported");
      }
      ColumnMetaData metaData = chunk.getMeta_data();
      if (metaData == null || chunk.isSetCrypto_metadata()) {
        throw new CorruptFileException(
            file
                + ": corrupt Parquet footer: row group "
                + position
                + " has a column chunk without plaintext metadata");
      }
      ColumnPath path = ColumnPath.get(metaData.getPath_in_schema().toArray(new String[0]));
      ColumnChunkMetaData column =
          converter.buildColumnChunkMetaData(
              metaData, path, schema.getType(path.toArray()).asPrimitiveType(), createdBy);
      column.setRowGroupOrdinal(rowGroup.isSetOrdinal() ? rowGroup.getOrdinal() : 0);
      if (metaData.isSetBloom_filter_offset()) {
        column.setBloomFilterOffset(metaData.getBloom_filter_offset());
      }
      if (metaData.isSetBloom_filter_length()) {
        column.setBloomFilterLength(metaData.getBloom_filter_length());
      }
      column.setColumnIndexReference(
          chunk.isSetColumn_index_offset() && chunk.isSetColumn_index_length()
              ? new IndexReference(chunk.getColumn_index_offset(), chunk.getColumn_index_length())
              : null);
      column.setOffsetIndexReference(
          chunk.isSetOffset_index_offset() && chunk.isSetOffset_index_length()
              ? new IndexReference(chunk.getOffset_index_offset(), chunk.getOffset_index_length())
              : null);
      block.addColumn(column);
    }
    block.setPath(filePath);
    return block;
  }

  /**
   * Where split planning takes row group {@code rowGroup} to start (see {@link
   * RowGroupStructs#midpointStart}).
   */
  public long midpointStart(int rowGroup) throws CorruptFileException {
    return structs.midpointStart(rowGroup);
  }

  /** The sum of the compressed sizes of row group {@code rowGroup}'s chunks (decodes it whole). */
  long chunkCompressedSizes(int rowGroup) throws CorruptFileException {
    long total = 0;
    for (ColumnChunk chunk : structs.decode(rowGroup, null).getColumns()) {
      if (chunk.getMeta_data() == null) {
        throw new CorruptFileException(
            file
                + ": corrupt Parquet footer: row group "
                + rowGroup
                + " has neither total_compressed_size nor plaintext chunk sizes");
      }
      total += chunk.getMeta_data().getTotal_compressed_size();
    }
    return total;
  }

  /** Metadata with the row groups holding rows of {@code [firstRow, firstRow + rowCount)}. */
  public ParquetMetadata decodeRowRange(
      long firstRow, long rowCount, Collection<ColumnPath> projection) throws CorruptFileException {
    return decode(index.rowGroupsOverlapping(firstRow, rowCount), projection);
  }

  /** The file-level metadata (schema, key-value metadata, created_by, column orders). */
  private org.apache.parquet.hadoop.metadata.FileMetaData convert() throws CorruptFileException {
    FileMetaData metadata = new FileMetaData();
    metadata.setVersion(index.version());
    metadata.setSchema(schemaElements);
    metadata.setNum_rows(index.numRows());
    metadata.setRow_groups(new ArrayList<>());
    if (keyValues != null) {
      metadata.setKey_value_metadata(keyValues);
    }
    if (createdBy != null) {
      metadata.setCreated_by(createdBy);
    }
    if (columnOrders != null) {
      metadata.setColumn_orders(columnOrders);
    }
    try {
      return converter.fromParquetMetadata(metadata).getFileMetaData();
    } catch (java.io.IOException e) {
      throw corrupt("file metadata", e);
    }
  }

  private interface ElementFactory<T> {
    T create();
  }

  private <T extends shaded.parquet.org.apache.thrift.TBase<?, ?>> List<T> readList(
      int field, ElementFactory<T> factory) throws TException {
    TCompactProtocol protocol = protocol(index.fieldStart(field), index.fieldEnd(field));
    TList list = protocol.readListBegin();
    List<T> elements = new ArrayList<>(list.size);
    for (int i = 0; i < list.size; i++) {
      T element = factory.create();
      element.read(protocol);
      elements.add(element);
    }
    return elements;
  }

  private TCompactProtocol protocol(int start, int end) throws TException {
    return ThriftSlices.protocol(footer, base + start, base + end);
  }

  private CorruptFileException corrupt(String where, Throwable cause) {
    if (cause instanceof CorruptFileException corrupt) {
      return corrupt;
    }
    return new CorruptFileException(
        file + ": corrupt Parquet footer: " + where + " does not decode: " + cause, cause);
  }
}
