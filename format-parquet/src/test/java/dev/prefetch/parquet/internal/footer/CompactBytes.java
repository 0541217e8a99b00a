package dev.prefetch.parquet.internal.footer;

import dev.prefetch.parquet.internal.thrift.CompactCursor;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Hand-built Thrift compact-protocol bytes for tests: headers, varints and raw bytes. */
final class CompactBytes {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** A short-form field header: id delta 1..15 from the previous field of the struct. */
  CompactBytes field(int delta, int type) {
    out.write((delta << 4) | type);
    return this;
  }

  /** A long-form field header: type nibble with delta 0, then the zigzag id. */
  CompactBytes longField(int id, int type) {
    out.write(type);
    return zigzag(id);
  }

  CompactBytes stop() {
    out.write(0);
    return this;
  }

  CompactBytes raw(int... bytes) {
    for (int b : bytes) {
      out.write(b);
    }
    return this;
  }

  CompactBytes varint(long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
    return this;
  }

  CompactBytes zigzag(long value) {
    return varint((value << 1) ^ (value >> 63));
  }

  CompactBytes binary(String text) {
    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    varint(bytes.length);
    out.write(bytes, 0, bytes.length);
    return this;
  }

  /** A list or set header with fewer than 15 elements. */
  CompactBytes listHeader(int size, int elementType) {
    if (size < 15) {
      out.write((size << 4) | elementType);
      return this;
    }
    out.write(0xf0 | elementType);
    return varint(size);
  }

  CompactBytes append(CompactBytes other) {
    byte[] bytes = other.toByteArray();
    out.write(bytes, 0, bytes.length);
    return this;
  }

  int size() {
    return out.size();
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  ByteBuffer buffer() {
    return ByteBuffer.wrap(toByteArray());
  }

  // --- pieces of a minimal FileMetaData ---

  /** A schema list with a root and one int64 leaf (content is not read by the index). */
  static CompactBytes schemaList() {
    return new CompactBytes()
        .listHeader(2, CompactCursor.STRUCT)
        .field(4, CompactCursor.BINARY)
        .binary("root")
        .field(1, CompactCursor.I32)
        .zigzag(1)
        .stop()
        .field(1, CompactCursor.I32)
        .zigzag(2)
        .field(3, CompactCursor.BINARY)
        .binary("a")
        .stop();
  }

  /**
   * The head of a FileMetaData in written order: version, a {@link #schemaList()}, num_rows and the
   * header of a row_groups list of {@code rowGroups} structs, which the caller appends.
   */
  static CompactBytes footerHead(int version, long numRows, int rowGroups) {
    return new CompactBytes()
        .field(1, CompactCursor.I32)
        .zigzag(version)
        .field(1, CompactCursor.LIST)
        .append(schemaList())
        .field(1, CompactCursor.I64)
        .zigzag(numRows)
        .field(1, CompactCursor.LIST)
        .listHeader(rowGroups, CompactCursor.STRUCT);
  }

  /** A RowGroup struct with no columns. */
  static CompactBytes rowGroup(long rows, long fileOffset, int ordinal) {
    return new CompactBytes()
        .field(1, CompactCursor.LIST)
        .listHeader(0, CompactCursor.STRUCT)
        .field(1, CompactCursor.I64)
        .zigzag(rows * 10)
        .field(1, CompactCursor.I64)
        .zigzag(rows)
        .field(2, CompactCursor.I64)
        .zigzag(fileOffset)
        .field(1, CompactCursor.I64)
        .zigzag(rows * 5)
        .field(1, CompactCursor.I16)
        .zigzag(ordinal)
        .stop();
  }
}
