package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * The compact byte form of a {@link FooterIndex}, for the metadata cache: a magic, then varints,
 * about 8 to 15 bytes per row group (spans delta-coded against the previous row group's end).
 *
 * <p>Decoding checks every span against the footer length and every count against the bytes that
 * remain, so a damaged or foreign cache value gives a {@link CorruptFileException}, never a wrong
 * index; a reader then rebuilds the index from the footer.
 */
public final class FooterIndexCodec {

  private static final int MAGIC = 0x50464931; // "PFI1"
  private static final int MIN_BYTES_PER_ROW_GROUP = 7;

  private FooterIndexCodec() {}

  /** The index as bytes. */
  public static byte[] encode(FooterIndex index) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 + index.rowGroupCount() * 12);
    out.write(MAGIC >>> 24);
    out.write(MAGIC >>> 16);
    out.write(MAGIC >>> 8);
    out.write(MAGIC);
    writeVarint(out, index.footerLength());
    writeVarint(out, zigzag(index.version()));
    writeVarint(out, index.numRows());
    for (int id = 1; id <= FooterIndex.MAX_FIELD; id++) {
      int start = index.fieldStart(id);
      if (start < 0) {
        writeVarint(out, 0);
      } else {
        writeVarint(out, start + 1L);
        writeVarint(out, index.fieldEnd(id) - (long) start);
      }
    }
    int count = index.rowGroupCount();
    writeVarint(out, count);
    long previousEnd = 0;
    for (int i = 0; i < count; i++) {
      int start = index.rowGroupStart(i);
      writeVarint(out, zigzag(start - previousEnd));
      writeVarint(out, index.rowGroupEnd(i) - (long) start);
      writeVarint(out, index.rowGroupRowCount(i));
      writeVarint(out, zigzag(index.rowGroupFileOffset(i)));
      writeVarint(out, zigzag(index.rowGroupCompressedSize(i)));
      int ordinal = index.rowGroupOrdinal(i);
      writeVarint(out, ordinal == FooterIndex.NO_ORDINAL ? 0 : zigzag(ordinal) + 1);
      previousEnd = index.rowGroupEnd(i);
    }
    return out.toByteArray();
  }

  /**
   * The index encoded in {@code bytes}.
   *
   * @param source names the cache entry or file in error messages
   * @throws CorruptFileException if the bytes are not an encoded index
   */
  public static FooterIndex decode(ByteBuffer bytes, String source) throws CorruptFileException {
    Reader in = new Reader(bytes.duplicate(), source);
    if (in.remaining() < 4 || in.buffer.getInt() != MAGIC) {
      throw in.damaged("no footer index magic");
    }
    int footerLength = in.intValue(in.varint(), "footer length");
    int version = in.intValue(unzigzag(in.varint()), "version");
    long numRows = in.varint();
    if (numRows < 0) {
      throw in.damaged("negative row count");
    }
    int[] fieldStart = new int[FooterIndex.MAX_FIELD + 1];
    int[] fieldEnd = new int[FooterIndex.MAX_FIELD + 1];
    fieldStart[0] = -1;
    fieldEnd[0] = -1;
    for (int id = 1; id <= FooterIndex.MAX_FIELD; id++) {
      long startPlusOne = in.varint();
      if (startPlusOne == 0) {
        fieldStart[id] = -1;
        fieldEnd[id] = -1;
      } else {
        fieldStart[id] = in.offset(startPlusOne - 1, footerLength);
        fieldEnd[id] = in.offset(fieldStart[id] + in.varint(), footerLength);
      }
    }
    long declared = in.varint();
    if (declared < 0 || declared > in.remaining() / MIN_BYTES_PER_ROW_GROUP + 1) {
      throw in.damaged("row group count " + declared + " does not fit its bytes");
    }
    int count = (int) declared;
    int[] start = new int[count];
    int[] end = new int[count];
    long[] rows = new long[count];
    long[] fileOffset = new long[count];
    long[] compressed = new long[count];
    int[] ordinal = new int[count];
    long previousEnd = 0;
    for (int i = 0; i < count; i++) {
      start[i] = in.offset(previousEnd + unzigzag(in.varint()), footerLength);
      end[i] = in.offset(start[i] + in.varint(), footerLength);
      rows[i] = in.varint();
      if (rows[i] < 0) {
        throw in.damaged("negative row count in row group " + i);
      }
      fileOffset[i] = unzigzag(in.varint());
      compressed[i] = unzigzag(in.varint());
      long ord = in.varint();
      ordinal[i] = ord == 0 ? FooterIndex.NO_ORDINAL : in.intValue(unzigzag(ord - 1), "ordinal");
      previousEnd = end[i];
    }
    if (in.remaining() != 0) {
      throw in.damaged(in.remaining() + " trailing bytes");
    }
    try {
      return new FooterIndex(
          footerLength,
          version,
          numRows,
          fieldStart,
          fieldEnd,
          count,
          start,
          end,
          rows,
          fileOffset,
          compressed,
          ordinal);
    } catch (ArithmeticException e) {
      throw in.damaged("row counts overflow");
    }
  }

  private static final class Reader {
    final ByteBuffer buffer;
    final String source;

    Reader(ByteBuffer buffer, String source) {
      this.buffer = buffer;
      this.source = source;
    }

    int remaining() {
      return buffer.remaining();
    }

    long varint() throws CorruptFileException {
      long value = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        if (!buffer.hasRemaining()) {
          throw damaged("truncated");
        }
        byte b = buffer.get();
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw damaged("over-long varint");
    }

    int offset(long value, int footerLength) throws CorruptFileException {
      if (value < 0 || value > footerLength) {
        throw damaged("offset " + value + " outside a footer of " + footerLength + " bytes");
      }
      return (int) value;
    }

    int intValue(long value, String what) throws CorruptFileException {
      if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
        throw damaged(what + " " + value + " out of range");
      }
      return (int) value;
    }

    CorruptFileException damaged(String what) {
      return new CorruptFileException(source + ": damaged footer index: " + what);
    }
  }

  private static void writeVarint(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  private static long zigzag(long n) {
    return (n << 1) ^ (n >> 63);
  }

  private static long unzigzag(long n) {
    return (n >>> 1) ^ -(n & 1);
  }
}
