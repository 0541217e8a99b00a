package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Where each part of a Parquet footer ({@code FileMetaData} in Thrift compact bytes) lies, found in
 * one pass that builds no Thrift objects: per row group the byte span of its {@code RowGroup}
 * struct, its row count and first row, {@code file_offset}, {@code total_compressed_size} and
 * {@code ordinal}; and the spans of the top-level fields (schema, key-value metadata, created_by,
 * column orders, encryption fields).
 *
 * <p>With it a reader decodes only the schema and the row groups it reads ({@link
 * SelectiveFooterDecoder}). Spans are offsets relative to the first byte of the {@code
 * FileMetaData}; the index is only valid with the exact footer bytes it was built from, which
 * {@link #footerLength()} helps check. Immutable; {@link FooterIndexCodec} turns it into a few
 * bytes per row group for the metadata cache.
 *
 * <p>Per-row-group data lives in primitive arrays, one entry per row group, so that an index of
 * thousands of row groups is a handful of objects.
 */
public final class FooterIndex {

  /** Top-level {@code FileMetaData} field ids (parquet.thrift). */
  public static final int FIELD_VERSION = 1;

  public static final int FIELD_SCHEMA = 2;
  public static final int FIELD_NUM_ROWS = 3;
  public static final int FIELD_ROW_GROUPS = 4;
  public static final int FIELD_KEY_VALUE_METADATA = 5;
  public static final int FIELD_CREATED_BY = 6;
  public static final int FIELD_COLUMN_ORDERS = 7;
  public static final int FIELD_ENCRYPTION_ALGORITHM = 8;
  public static final int FIELD_FOOTER_SIGNING_KEY_METADATA = 9;

  /** The highest top-level field id whose span is kept; higher (unknown) ids are skipped. */
  static final int MAX_FIELD = 9;

  /** A missing optional value in the long arrays, and a missing span. */
  public static final long ABSENT = -1;

  /** A missing ordinal (ordinals are i16, so this cannot be a real one). */
  public static final int NO_ORDINAL = Integer.MIN_VALUE;

  private final int footerLength;
  private final int version;
  private final long numRows;

  /** Indexed by top-level field id: start and end offsets of the field's value, or -1. */
  private final int[] fieldStart;

  private final int[] fieldEnd;
  private final int rowGroupCount;
  private final int[] rowGroupStart;
  private final int[] rowGroupEnd;
  private final long[] rowGroupRows;

  /** rowGroupFirstRow[i] = sum of the row counts before i; one more entry holds the total. */
  private final long[] rowGroupFirstRow;

  private final long[] rowGroupFileOffset;
  private final long[] rowGroupCompressedSize;
  private final int[] rowGroupOrdinal;

  FooterIndex(
      int footerLength,
      int version,
      long numRows,
      int[] fieldStart,
      int[] fieldEnd,
      int rowGroupCount,
      int[] rowGroupStart,
      int[] rowGroupEnd,
      long[] rowGroupRows,
      long[] rowGroupFileOffset,
      long[] rowGroupCompressedSize,
      int[] rowGroupOrdinal) {
    this.footerLength = footerLength;
    this.version = version;
    this.numRows = numRows;
    this.fieldStart = fieldStart;
    this.fieldEnd = fieldEnd;
    this.rowGroupCount = rowGroupCount;
    this.rowGroupStart = rowGroupStart;
    this.rowGroupEnd = rowGroupEnd;
    this.rowGroupRows = rowGroupRows;
    this.rowGroupFileOffset = rowGroupFileOffset;
    this.rowGroupCompressedSize = rowGroupCompressedSize;
    this.rowGroupOrdinal = rowGroupOrdinal;
    this.rowGroupFirstRow = new long[rowGroupCount + 1];
    long sum = 0;
    for (int i = 0; i < rowGroupCount; i++) {
      rowGroupFirstRow[i] = sum;
      sum = Math.addExact(sum, rowGroupRows[i]);
    }
    rowGroupFirstRow[rowGroupCount] = sum;
  }

  /**
   * Walks the {@code FileMetaData} in {@code footer[position, limit)} once and indexes it.
   *
   * @param footer the serialized FileMetaData (without the trailing length and magic)
   * @param file the file's name for error messages
   * @throws CorruptFileException if the bytes are not a well-formed FileMetaData
   */
  public static FooterIndex build(ByteBuffer footer, String file) throws CorruptFileException {
    return FooterIndexBuilder.build(footer, file);
  }

  /** Length of the FileMetaData bytes this index was built from. */
  public int footerLength() {
    return footerLength;
  }

  /** The {@code version} field. */
  public int version() {
    return version;
  }

  /** The {@code num_rows} field of the file (as written; not checked against the row groups). */
  public long numRows() {
    return numRows;
  }

  /** Sum of the row groups' row counts. */
  public long totalRowGroupRows() {
    return rowGroupFirstRow[rowGroupCount];
  }

  public int rowGroupCount() {
    return rowGroupCount;
  }

  /** Whether top-level field {@code id} (1..9) is present. */
  public boolean hasField(int id) {
    return id >= 1 && id <= MAX_FIELD && fieldStart[id] >= 0;
  }

  /** Offset of the value of top-level field {@code id}, or -1 when absent. */
  public int fieldStart(int id) {
    checkFieldId(id);
    return fieldStart[id];
  }

  /** End offset (exclusive) of the value of top-level field {@code id}, or -1 when absent. */
  public int fieldEnd(int id) {
    checkFieldId(id);
    return fieldEnd[id];
  }

  /**
   * Whether the footer declares column encryption with a plaintext footer ({@code
   * encryption_algorithm} set): such files must be read by parquet-hadoop's full parse.
   */
  public boolean hasEncryption() {
    return hasField(FIELD_ENCRYPTION_ALGORITHM) || hasField(FIELD_FOOTER_SIGNING_KEY_METADATA);
  }

  public int rowGroupStart(int rowGroup) {
    return rowGroupStart[checkRowGroup(rowGroup)];
  }

  public int rowGroupEnd(int rowGroup) {
    return rowGroupEnd[checkRowGroup(rowGroup)];
  }

  public long rowGroupRowCount(int rowGroup) {
    return rowGroupRows[checkRowGroup(rowGroup)];
  }

  /** The file row index of the first row of {@code rowGroup}. */
  public long rowGroupFirstRow(int rowGroup) {
    return rowGroupFirstRow[checkRowGroup(rowGroup)];
  }

  /** {@code file_offset}, or {@link #ABSENT}. */
  public long rowGroupFileOffset(int rowGroup) {
    return rowGroupFileOffset[checkRowGroup(rowGroup)];
  }

  /** {@code total_compressed_size}, or {@link #ABSENT}. */
  public long rowGroupCompressedSize(int rowGroup) {
    return rowGroupCompressedSize[checkRowGroup(rowGroup)];
  }

  /** {@code ordinal}, or {@link #NO_ORDINAL}. */
  public int rowGroupOrdinal(int rowGroup) {
    return rowGroupOrdinal[checkRowGroup(rowGroup)];
  }

  /**
   * The row groups (positions in the footer, ascending) holding at least one row of {@code
   * [firstRow, firstRow + rowCount)}.
   */
  public int[] rowGroupsOverlapping(long firstRow, long rowCount) {
    if (firstRow < 0 || rowCount < 0) {
      throw new IllegalArgumentException(
          "bad row range: first " + firstRow + ", count " + rowCount);
    }
    long end = rowCount > Long.MAX_VALUE - firstRow ? Long.MAX_VALUE : firstRow + rowCount;
    if (rowCount == 0 || rowGroupCount == 0) {
      return new int[0];
    }
    // the last row group whose first row is <= firstRow
    int from = Arrays.binarySearch(rowGroupFirstRow, 0, rowGroupCount, firstRow);
    if (from < 0) {
      from = -from - 2;
    } else {
      while (from > 0 && rowGroupFirstRow[from - 1] == firstRow) {
        from--; // empty row groups before: they hold no row, skipped below
      }
    }
    from = Math.max(from, 0);
    int[] chosen = new int[rowGroupCount - from];
    int n = 0;
    for (int i = from; i < rowGroupCount && rowGroupFirstRow[i] < end; i++) {
      if (rowGroupRows[i] > 0 && rowGroupFirstRow[i] + rowGroupRows[i] > firstRow) {
        chosen[n++] = i;
      }
    }
    return Arrays.copyOf(chosen, n);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FooterIndex other)) {
      return false;
    }
    return footerLength == other.footerLength
        && version == other.version
        && numRows == other.numRows
        && rowGroupCount == other.rowGroupCount
        && Arrays.equals(fieldStart, other.fieldStart)
        && Arrays.equals(fieldEnd, other.fieldEnd)
        && Arrays.equals(rowGroupStart, 0, rowGroupCount, other.rowGroupStart, 0, rowGroupCount)
        && Arrays.equals(rowGroupEnd, 0, rowGroupCount, other.rowGroupEnd, 0, rowGroupCount)
        && Arrays.equals(rowGroupRows, 0, rowGroupCount, other.rowGroupRows, 0, rowGroupCount)
        && Arrays.equals(
            rowGroupFileOffset, 0, rowGroupCount, other.rowGroupFileOffset, 0, rowGroupCount)
        && Arrays.equals(
            rowGroupCompressedSize,
            0,
            rowGroupCount,
            other.rowGroupCompressedSize,
            0,
            rowGroupCount)
        && Arrays.equals(
            rowGroupOrdinal, 0, rowGroupCount, other.rowGroupOrdinal, 0, rowGroupCount);
  }

  @Override
  public int hashCode() {
    return ((footerLength * 31 + rowGroupCount) * 31 + Long.hashCode(numRows)) * 31
        + Arrays.hashCode(fieldStart);
  }

  @Override
  public String toString() {
    return "FooterIndex["
        + footerLength
        + " footer bytes, "
        + rowGroupCount
        + " row groups, "
        + totalRowGroupRows()
        + " rows]";
  }

  private int checkRowGroup(int rowGroup) {
    if (rowGroup < 0 || rowGroup >= rowGroupCount) {
      throw new IndexOutOfBoundsException("row group " + rowGroup + " of " + rowGroupCount);
    }
    return rowGroup;
  }

  private static void checkFieldId(int id) {
    if (id < 1 || id > MAX_FIELD) {
      throw new IllegalArgumentException(
          "top-level field id must be in 1.." + MAX_FIELD + ": " + id);
    }
  }
}
