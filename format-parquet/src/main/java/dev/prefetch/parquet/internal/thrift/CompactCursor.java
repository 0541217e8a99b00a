package dev.prefetch.parquet.internal.thrift;

import dev.prefetch.CorruptFileException;
import java.nio.ByteBuffer;

/**
 * A bounds-checked read position over Thrift compact-protocol bytes that reads headers and scalars
 * and skips whole values without building any object.
 *
 * <p>Every length read from the bytes is checked against the bytes that remain before it is used,
 * so a corrupt length fails at once instead of allocating or looping; every skipped value consumes
 * at least one byte, so a walk is linear in the input.
 *
 * <p>Positions are absolute indexes of the buffer the cursor was made for, but bytes are read from
 * a plain array (the buffer's own, or a copy of the span when the buffer exposes none, as a
 * read-only cache value does): array reads are several times faster than {@code ByteBuffer.get} in
 * this byte-at-a-time walk.
 */
public final class CompactCursor {

  /** Compact type ids (the low nibble of a field header or a collection's element type). */
  public static final int STOP = 0;

  public static final int BOOLEAN_TRUE = 1;
  public static final int BOOLEAN_FALSE = 2;
  public static final int BYTE = 3;
  public static final int I16 = 4;
  public static final int I32 = 5;
  public static final int I64 = 6;
  public static final int DOUBLE = 7;
  public static final int BINARY = 8;
  public static final int LIST = 9;
  public static final int SET = 10;
  public static final int MAP = 11;
  public static final int STRUCT = 12;
  public static final int UUID = 13;

  /**
   * Deeper nesting than this is taken as corruption; Parquet metadata nests fewer than 10 levels.
   */
  public static final int MAX_DEPTH = 64;

  public static final int MAX_VARINT_BYTES = 10;
  public static final int UUID_BYTES = 16;

  // bytes, delta, limit and pos are read and written by CompactSkipper's loop as well (the one
  // other class of this cursor's state): it keeps the position in a local while it runs and
  // writes it back before it calls any method of the cursor and when it returns.
  final byte[] bytes;

  /** bytes[pos - delta] is the byte at absolute position pos. */
  final int delta;

  private final int start;
  final int limit;
  private final String file;
  int pos;

  /** The field id and compact type of the last {@link #readFieldHeader} (type STOP at the end). */
  private int fieldId;

  private int fieldType;

  /** Skips whole values; made on the first skip. */
  private CompactSkipper skipper;

  /**
   * A cursor over {@code buffer[start, limit)} (absolute indexes), naming {@code file} in errors.
   */
  public CompactCursor(ByteBuffer buffer, int start, int limit, String file) {
    if (start < 0 || limit < start || limit > buffer.limit()) {
      throw new IllegalArgumentException(
          "bad span [" + start + ", " + limit + ") of a buffer of " + buffer.limit() + " bytes");
    }
    if (buffer.hasArray()) {
      this.bytes = buffer.array();
      this.delta = -buffer.arrayOffset();
    } else {
      this.bytes = new byte[limit - start];
      buffer.get(start, bytes, 0, bytes.length);
      this.delta = start;
    }
    this.start = start;
    this.limit = limit;
    this.file = file;
    this.pos = start;
  }

  /** The absolute position of the next byte. */
  public int position() {
    return pos;
  }

  public int limit() {
    return limit;
  }

  public int remaining() {
    return limit - pos;
  }

  public int fieldId() {
    return fieldId;
  }

  public int fieldType() {
    return fieldType;
  }

  /** Starts reading a struct: the field ids of its headers are deltas from 0. */
  public void beginStruct() {
    fieldId = 0;
  }

  /**
   * Returns to an enclosing struct after reading nested structs field by field: its next header's
   * delta counts from {@code lastFieldId}, the id of the field that held the nested values.
   */
  public void resumeStruct(int lastFieldId) {
    fieldId = lastFieldId;
  }

  /**
   * Reads the next field header of the current struct; returns false at its stop byte. The caller
   * keeps the previous field id across nested structs (see {@link #skipStruct}).
   */
  public boolean readFieldHeader() throws CorruptFileException {
    int header = readByte() & 0xff;
    if (header == STOP) {
      fieldType = STOP;
      return false;
    }
    int type = header & 0x0f;
    int delta = header >>> 4;
    if (delta == 0) {
      long id = zigzag(readVarint());
      if (id < Short.MIN_VALUE || id > Short.MAX_VALUE) {
        throw corrupt("field id " + id + " out of the i16 range");
      }
      fieldId = (int) id;
    } else {
      fieldId += delta;
    }
    checkType(type);
    fieldType = type;
    return true;
  }

  public byte readByte() throws CorruptFileException {
    if (pos >= limit) {
      throw corrupt("a value runs past the end of the metadata");
    }
    return bytes[pos++ - delta];
  }

  /** An unsigned LEB128 varint of at most 10 bytes. */
  public long readVarint() throws CorruptFileException {
    long value = 0;
    int shift = 0;
    for (int i = 0; i < MAX_VARINT_BYTES; i++) {
      byte b = readByte();
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
      shift += 7;
    }
    throw corrupt("a varint is longer than " + MAX_VARINT_BYTES + " bytes");
  }

  /** A zigzag-encoded i16, i32 or i64 value. */
  public long readZigzag() throws CorruptFileException {
    return zigzag(readVarint());
  }

  /** Reads an integer field value of compact type I16, I32 or I64 (BYTE also accepted). */
  public long readInteger(String what) throws CorruptFileException {
    switch (fieldType) {
      case BYTE:
        return readByte();
      case I16:
      case I32:
      case I64:
        return readZigzag();
      default:
        throw corrupt(what + " has compact type " + fieldType + ", not an integer");
    }
  }

  /**
   * A collection or binary size: a varint that must fit an int, not be negative, and not claim more
   * elements than the bytes left could hold at {@code minBytesEach} bytes per element.
   */
  public int readSize(int minBytesEach, String what) throws CorruptFileException {
    long size = readVarint();
    return checkSize(size, minBytesEach, what);
  }

  private int checkSize(long size, int minBytesEach, String what) throws CorruptFileException {
    if (size < 0 || size > Integer.MAX_VALUE) {
      throw corrupt(what + " has a negative or huge size " + size);
    }
    if (size * minBytesEach > remaining()) {
      throw corrupt(
          what
              + " of size "
              + size
              + " runs past the end of the metadata ("
              + remaining()
              + " bytes left)");
    }
    return (int) size;
  }

  /**
   * Reads a list or set header; returns its size and leaves the element type in {@link
   * #elementType}.
   */
  public int readListHeader(String what) throws CorruptFileException {
    int header = readByte() & 0xff;
    int type = header & 0x0f;
    checkElementType(type);
    elementType = type;
    int shortSize = header >>> 4;
    long size = shortSize == 15 ? readVarint() : shortSize;
    return checkSize(size, 1, what);
  }

  private int elementType;

  /** The element type of the last list or set header. */
  public int elementType() {
    return elementType;
  }

  /** Skips the value of the field just read by {@link #readFieldHeader}. */
  public void skipFieldValue(int depth) throws CorruptFileException {
    if (fieldType == BOOLEAN_TRUE || fieldType == BOOLEAN_FALSE) {
      return; // a struct field's boolean lives in its header
    }
    skipValue(fieldType, depth);
  }

  /** Skips one value of compact type {@code type} (inside a collection when boolean). */
  public void skipValue(int type, int depth) throws CorruptFileException {
    if (depth > MAX_DEPTH) {
      throw corrupt("values nest deeper than " + MAX_DEPTH + " levels");
    }
    skip(type, depth);
  }

  /** Skips the fields of a struct up to and including its stop byte. */
  public void skipStruct(int depth) throws CorruptFileException {
    skip(STRUCT, depth - 1);
  }

  /**
   * Skips one value of compact type {@code type} at nesting level {@code depth}, with the skipper
   * this cursor makes on first use.
   */
  private void skip(int type, int depth) throws CorruptFileException {
    if (skipper == null) {
      skipper = new CompactSkipper(this);
    }
    skipper.skip(type, depth);
  }

  public void advance(int bytes) throws CorruptFileException {
    if (bytes < 0 || bytes > remaining()) {
      throw corrupt(
          "a value of "
              + bytes
              + " bytes runs past the end of the metadata ("
              + remaining()
              + " bytes left)");
    }
    pos += bytes;
  }

  public CorruptFileException corrupt(String what) {
    return new CorruptFileException(
        file
            + ": corrupt Parquet footer: "
            + what
            + " (at byte "
            + (pos - start)
            + " of "
            + (limit - start)
            + ")");
  }

  public void checkType(int type) throws CorruptFileException {
    if (type < BOOLEAN_TRUE || type > UUID) {
      throw corrupt("unknown compact type " + type);
    }
  }

  public void checkElementType(int type) throws CorruptFileException {
    checkType(type);
  }

  public static long zigzag(long n) {
    return (n >>> 1) ^ -(n & 1);
  }
}
