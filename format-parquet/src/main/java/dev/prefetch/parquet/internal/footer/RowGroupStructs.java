package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SortingColumn;
import shaded.parquet.org.apache.thrift.TException;
import shaded.parquet.org.apache.thrift.protocol.TCompactProtocol;
import shaded.parquet.org.apache.thrift.protocol.TList;

/**
 * Decodes the {@code RowGroup} structs of a footer, each from its own bytes as a {@link
 * FooterIndex} located them: whole with parquet's Thrift classes, or only the projected column
 * chunks, the others skipped by a {@link CompactCursor} (a chunk's {@code path_in_schema} is
 * checked against the leaf it should be; on a mismatch, a chunk count that differs from the leaf
 * count, or an encrypted chunk, the struct is decoded whole instead). Immutable; safe to share
 * across threads.
 */
final class RowGroupStructs {

  private final ByteBuffer footer;
  private final int base;
  private final FooterIndex index;
  private final String file;

  /** Over {@code footer}'s FileMetaData bytes, which start at {@code base}. */
  RowGroupStructs(ByteBuffer footer, int base, FooterIndex index, String file) {
    this.footer = footer;
    this.base = base;
    this.index = index;
    this.file = file;
  }

  /**
   * Where split planning takes row group {@code rowGroup} to start: its first column chunk's
   * dictionary page offset when set and lower than its first data page offset, else that data page
   * offset; {@code file_offset} when that chunk has no plaintext metadata. Decodes that one chunk
   * only.
   *
   * @throws CorruptFileException if the row group has no column chunk or it does not decode
   */
  long midpointStart(int rowGroup) throws CorruptFileException {
    CompactCursor cursor =
        new CompactCursor(
            footer, base + index.rowGroupStart(rowGroup), base + index.rowGroupEnd(rowGroup), file);
    try {
      cursor.beginStruct();
      while (cursor.readFieldHeader()) {
        if (cursor.fieldId() != RowGroup._Fields.COLUMNS.getThriftFieldId()
            || cursor.fieldType() != CompactCursor.LIST) {
          cursor.skipFieldValue(2);
          continue;
        }
        if (cursor.readListHeader("columns") == 0 || cursor.elementType() != CompactCursor.STRUCT) {
          break;
        }
        int chunkStart = cursor.position();
        cursor.skipStruct(2);
        ColumnChunk chunk = new ColumnChunk();
        chunk.read(ThriftSlices.protocol(footer, chunkStart, cursor.position()));
        ColumnMetaData metaData = chunk.getMeta_data();
        if (metaData == null) {
          long fileOffset = index.rowGroupFileOffset(rowGroup);
          if (fileOffset == FooterIndex.ABSENT) {
            break;
          }
          return fileOffset;
        }
        long offset = metaData.getData_page_offset();
        if (metaData.isSetDictionary_page_offset()
            && offset > metaData.getDictionary_page_offset()) {
          offset = metaData.getDictionary_page_offset();
        }
        return offset;
      }
    } catch (TException | RuntimeException e) {
      throw corrupt("row group " + rowGroup, e);
    }
    throw new CorruptFileException(
        file
            + ": corrupt Parquet footer: row group "
            + rowGroup
            + " has no column chunk to place it in the file");
  }

  /**
   * Row group {@code rowGroup}: only the chunks {@code selected} names (see {@link LeafSelection};
   * null for every chunk), or all of it when the chunk positions cannot be trusted.
   */
  RowGroup decode(int rowGroup, List<String>[] selected) throws CorruptFileException {
    int start = base + index.rowGroupStart(rowGroup);
    int end = base + index.rowGroupEnd(rowGroup);
    try {
      if (selected != null) {
        RowGroup projected = decodeProjected(rowGroup, start, end, selected);
        if (projected != null) {
          return projected;
        }
      }
      RowGroup whole = new RowGroup();
      whole.read(ThriftSlices.protocol(footer, start, end));
      return whole;
    } catch (TException | RuntimeException e) {
      throw corrupt("row group " + rowGroup, e);
    }
  }

  /**
   * The {@code RowGroup} field whose header {@code cursor} just read, or null for a field this
   * version of the format does not know, whose value is then skipped.
   */
  static RowGroup._Fields knownField(CompactCursor cursor) throws CorruptFileException {
    RowGroup._Fields field = RowGroup._Fields.findByThriftId(cursor.fieldId());
    if (field == null) {
      cursor.skipFieldValue(2);
    }
    return field;
  }

  /** The row group with only the selected chunks, or null when positions cannot be trusted. */
  private RowGroup decodeProjected(int rowGroup, int start, int end, List<String>[] selected)
      throws CorruptFileException, TException {
    CompactCursor cursor = new CompactCursor(footer, start, end, file);
    RowGroup group = new RowGroup();
    cursor.beginStruct();
    while (cursor.readFieldHeader()) {
      int type = cursor.fieldType();
      RowGroup._Fields field = RowGroupStructs.knownField(cursor);
      if (field == null) {
        continue;
      }
      switch (field) {
        case COLUMNS:
          {
            if (type != CompactCursor.LIST) {
              return null;
            }
            int outer = cursor.fieldId();
            List<ColumnChunk> chunks = decodeChunks(cursor, selected);
            if (chunks == null) {
              return null;
            }
            cursor.resumeStruct(outer);
            group.setColumns(chunks);
            break;
          }
        case TOTAL_BYTE_SIZE:
        case NUM_ROWS:
        case FILE_OFFSET:
        case TOTAL_COMPRESSED_SIZE:
          {
            // the i64 fields, set through Thrift's field table (once per field of a row group)
            group.setFieldValue(field, cursor.readInteger(field.getFieldName()));
            break;
          }
        case ORDINAL:
          group.setOrdinal((short) cursor.readInteger("ordinal"));
          break;
        case SORTING_COLUMNS:
          {
            if (type != CompactCursor.LIST) {
              return null;
            }
            int valueStart = cursor.position();
            cursor.skipFieldValue(2);
            TCompactProtocol protocol =
                ThriftSlices.protocol(footer, valueStart, cursor.position());
            TList list = protocol.readListBegin();
            List<SortingColumn> sorting = new ArrayList<>(list.size);
            for (int i = 0; i < list.size; i++) {
              SortingColumn column = new SortingColumn();
              column.read(protocol);
              sorting.add(column);
            }
            group.setSorting_columns(sorting);
            break;
          }
        default:
          cursor.skipFieldValue(2);
          break;
      }
    }
    group.validate();
    return group;
  }

  private List<ColumnChunk> decodeChunks(CompactCursor cursor, List<String>[] selected)
      throws CorruptFileException, TException {
    int size = cursor.readListHeader("columns");
    if (size != selected.length || cursor.elementType() != CompactCursor.STRUCT) {
      return null;
    }
    List<ColumnChunk> chunks = new ArrayList<>();
    for (int leaf = 0; leaf < size; leaf++) {
      int chunkStart = cursor.position();
      cursor.skipStruct(2);
      List<String> expected = selected[leaf];
      if (expected == null) {
        continue;
      }
      ColumnChunk chunk = new ColumnChunk();
      chunk.read(ThriftSlices.protocol(footer, chunkStart, cursor.position()));
      if (chunk.getMeta_data() == null
          || chunk.isSetCrypto_metadata()
          || !expected.equals(chunk.getMeta_data().getPath_in_schema())) {
        return null;
      }
      chunks.add(chunk);
    }
    return chunks;
  }

  private CorruptFileException corrupt(String where, Throwable cause) {
    if (cause instanceof CorruptFileException corrupt) {
      return corrupt;
    }
    return new CorruptFileException(
        file + ": corrupt Parquet footer: " + where + " does not decode: " + cause, cause);
  }
}
