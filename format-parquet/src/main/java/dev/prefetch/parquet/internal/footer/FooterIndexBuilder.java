package dev.prefetch.parquet.internal.footer;

import static dev.prefetch.parquet.internal.thrift.CompactCursor.BINARY;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I16;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I32;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.I64;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.LIST;
import static dev.prefetch.parquet.internal.thrift.CompactCursor.STRUCT;

import dev.prefetch.CorruptFileException;
import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.format.RowGroup;

/**
 * The one pass over a {@code FileMetaData} that produces a {@link FooterIndex}. Fields may come in
 * any order and unknown fields of any type are skipped, as Thrift itself does; a known field with
 * the wrong type, a missing required field, or bytes that do not parse are a {@link
 * CorruptFileException}.
 *
 * <p>Row-group arrays grow by doubling rather than being sized from the list header, so a corrupt
 * element count cannot make the walk allocate more than the bytes it actually finds.
 */
final class FooterIndexBuilder {

  private static final int INITIAL_ROW_GROUPS = 16;

  private final CompactCursor cursor;
  private final int base;

  private final int[] fieldStart = filled(FooterIndex.MAX_FIELD + 1);
  private final int[] fieldEnd = filled(FooterIndex.MAX_FIELD + 1);
  private int version;
  private long numRows = -1;

  private int count;
  private int[] start = new int[0];
  private int[] end = new int[0];
  private long[] rows = new long[0];
  private long[] fileOffset = new long[0];
  private long[] compressedSize = new long[0];
  private int[] ordinal = new int[0];

  private FooterIndexBuilder(ByteBuffer footer, String file) {
    this.base = footer.position();
    this.cursor = new CompactCursor(footer, footer.position(), footer.limit(), file);
  }

  static FooterIndex build(ByteBuffer footer, String file) throws CorruptFileException {
    return new FooterIndexBuilder(footer, file).walk();
  }

  private FooterIndex walk() throws CorruptFileException {
    cursor.beginStruct();
    boolean sawVersion = false;
    while (cursor.readFieldHeader()) {
      int id = cursor.fieldId();
      int valueStart = cursor.position();
      switch (id) {
        case FooterIndex.FIELD_VERSION:
          version = (int) checkedInteger(I32, "version");
          sawVersion = true;
          break;
        case FooterIndex.FIELD_NUM_ROWS:
          numRows = checkedInteger(I64, "num_rows");
          if (numRows < 0) {
            throw cursor.corrupt("negative num_rows " + numRows);
          }
          break;
        case FooterIndex.FIELD_ROW_GROUPS:
          expectType(LIST, "row_groups");
          readRowGroups();
          break;
        case FooterIndex.FIELD_SCHEMA:
        case FooterIndex.FIELD_KEY_VALUE_METADATA:
        case FooterIndex.FIELD_COLUMN_ORDERS:
          expectType(LIST, fieldName(id));
          cursor.skipFieldValue(1);
          break;
        case FooterIndex.FIELD_CREATED_BY:
        case FooterIndex.FIELD_FOOTER_SIGNING_KEY_METADATA:
          expectType(BINARY, fieldName(id));
          cursor.skipFieldValue(1);
          break;
        case FooterIndex.FIELD_ENCRYPTION_ALGORITHM:
          expectType(STRUCT, fieldName(id));
          cursor.skipFieldValue(1);
          break;
        default:
          cursor.skipFieldValue(1); // a field this reader does not know: Thrift ignores it too
          continue;
      }
      fieldStart[id] = valueStart - base;
      fieldEnd[id] = cursor.position() - base;
    }
    if (cursor.remaining() != 0) {
      throw cursor.corrupt(cursor.remaining() + " bytes after the end of FileMetaData");
    }
    if (!sawVersion) {
      throw cursor.corrupt("required field version is missing");
    }
    if (fieldStart[FooterIndex.FIELD_SCHEMA] < 0) {
      throw cursor.corrupt("required field schema is missing");
    }
    if (numRows < 0) {
      throw cursor.corrupt("required field num_rows is missing");
    }
    if (fieldStart[FooterIndex.FIELD_ROW_GROUPS] < 0) {
      throw cursor.corrupt("required field row_groups is missing");
    }
    try {
      return new FooterIndex(
          cursor.limit() - base,
          version,
          numRows,
          fieldStart,
          fieldEnd,
          count,
          start,
          end,
          rows,
          fileOffset,
          compressedSize,
          ordinal);
    } catch (ArithmeticException e) {
      throw cursor.corrupt("the row groups' row counts overflow a long");
    }
  }

  private void readRowGroups() throws CorruptFileException {
    count = 0; // a repeated field replaces the earlier value, as in Thrift
    int outerFieldId = cursor.fieldId();
    int size = cursor.readListHeader("row_groups");
    if (size > 0 && cursor.elementType() != STRUCT) {
      throw cursor.corrupt(
          "row_groups holds compact type " + cursor.elementType() + ", not structs");
    }
    for (int i = 0; i < size; i++) {
      readRowGroup();
    }
    cursor.resumeStruct(outerFieldId);
  }

  private void readRowGroup() throws CorruptFileException {
    int index = count;
    ensureCapacity(index + 1);
    int structStart = cursor.position();
    long rowCount = -1;
    long offset = FooterIndex.ABSENT;
    long compressed = FooterIndex.ABSENT;
    int ord = FooterIndex.NO_ORDINAL;
    boolean sawColumns = false;
    boolean sawTotalByteSize = false;
    cursor.beginStruct();
    while (cursor.readFieldHeader()) {
      RowGroup._Fields field = RowGroupStructs.knownField(cursor);
      if (field == null) {
        continue;
      }
      switch (field) {
        case COLUMNS:
          expectType(LIST, "row group " + index + " columns");
          cursor.skipFieldValue(2);
          sawColumns = true;
          break;
        case TOTAL_BYTE_SIZE:
          checkedInteger(I64, "row group " + index + " total_byte_size");
          sawTotalByteSize = true;
          break;
        case NUM_ROWS:
          rowCount = checkedInteger(I64, "row group " + index + " num_rows");
          if (rowCount < 0) {
            throw cursor.corrupt("row group " + index + " has negative num_rows " + rowCount);
          }
          break;
        case FILE_OFFSET:
          offset = checkedInteger(I64, "row group " + index + " file_offset");
          break;
        case TOTAL_COMPRESSED_SIZE:
          compressed = checkedInteger(I64, "row group " + index + " total_compressed_size");
          break;
        case ORDINAL:
          ord = (int) checkedInteger(I16, "row group " + index + " ordinal");
          break;
        default:
          cursor.skipFieldValue(2);
          break;
      }
    }
    if (!sawColumns || !sawTotalByteSize || rowCount < 0) {
      throw cursor.corrupt(
          "row group "
              + index
              + " lacks a required field (columns, "
              + "total_byte_size or num_rows)");
    }
    start[index] = structStart - base;
    end[index] = cursor.position() - base;
    rows[index] = rowCount;
    fileOffset[index] = offset;
    compressedSize[index] = compressed;
    ordinal[index] = ord;
    count = index + 1;
  }

  /** An integer field of the expected width; a narrower width is accepted, a wider one is not. */
  private long checkedInteger(int expected, String what) throws CorruptFileException {
    int type = cursor.fieldType();
    if (type > expected || type < CompactCursor.BYTE) {
      throw cursor.corrupt(what + " has compact type " + type + ", expected " + expected);
    }
    long value = cursor.readInteger(what);
    if (expected == I16 && (value < Short.MIN_VALUE || value > Short.MAX_VALUE)
        || expected == I32 && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
      throw cursor.corrupt(what + " value " + value + " out of range");
    }
    return value;
  }

  private void expectType(int type, String what) throws CorruptFileException {
    int actual = cursor.fieldType();
    boolean listLike = type == LIST && actual == CompactCursor.SET;
    if (actual != type && !listLike) {
      throw cursor.corrupt(what + " has compact type " + actual + ", expected " + type);
    }
  }

  private void ensureCapacity(int needed) {
    if (needed <= start.length) {
      return;
    }
    int capacity = Math.max(INITIAL_ROW_GROUPS, start.length * 2);
    start = Arrays.copyOf(start, capacity);
    end = Arrays.copyOf(end, capacity);
    rows = Arrays.copyOf(rows, capacity);
    fileOffset = Arrays.copyOf(fileOffset, capacity);
    compressedSize = Arrays.copyOf(compressedSize, capacity);
    ordinal = Arrays.copyOf(ordinal, capacity);
  }

  private static String fieldName(int id) {
    switch (id) {
      case FooterIndex.FIELD_SCHEMA:
        return "schema";
      case FooterIndex.FIELD_KEY_VALUE_METADATA:
        return "key_value_metadata";
      case FooterIndex.FIELD_CREATED_BY:
        return "created_by";
      case FooterIndex.FIELD_COLUMN_ORDERS:
        return "column_orders";
      case FooterIndex.FIELD_ENCRYPTION_ALGORITHM:
        return "encryption_algorithm";
      case FooterIndex.FIELD_FOOTER_SIGNING_KEY_METADATA:
        return "footer_signing_key_metadata";
      default:
        return "field " + id;
    }
  }

  private static int[] filled(int length) {
    int[] array = new int[length];
    Arrays.fill(array, -1);
    return array;
  }
}
