package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.parquet.internal.bulk.BinaryBuilder;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

/**
 * Variable-length results: BINARY and FIXED_LEN_BYTE_ARRAY values as they are (strings, bytes,
 * UUIDs, intervals, and decimals above precision 18 as big-endian two's complement), and INT64
 * values that need more than a long (INT(64, unsigned), or an INT64 decimal declared with a
 * precision above 18) as big-endian bytes. Values are copied back to back into one array.
 */
public final class BinaryDecoder extends BaseDecoder {

  /** Where a value comes from. */
  public enum Source {
    BYTES,
    INT64_SIGNED,
    INT64_UNSIGNED
  }

  private static final int INITIAL_BYTES_PER_VALUE = 16;

  private final Source source;
  private final boolean decimal;
  private byte[] data = new byte[0];
  private int dataLength;
  private int[] offsets = new int[1];
  private final byte[] scratch = new byte[9];

  /** Bytes per value of the last bulk batch (x16): sizes the next batch's array to fit at once. */
  private long bulkBytesPerValue16 = INITIAL_BYTES_PER_VALUE * 16L;

  public BinaryDecoder(DataType type, Source source) {
    super(type);
    this.source = source;
    this.decimal = type.kind() == DataType.Kind.DECIMAL;
  }

  /** Writes a long as big-endian bytes into {@code scratch}; returns the byte count. */
  private int int64Bytes(long v) {
    int start = 0;
    if (source == Source.INT64_UNSIGNED) {
      scratch[0] = 0; // a leading zero keeps the value positive
      start = 1;
    }
    for (int b = 0; b < 8; b++) {
      scratch[start + b] = (byte) (v >>> (56 - 8 * b));
    }
    return start + 8;
  }

  private ColumnVector vector(int rows, byte[] bytes, int[] outOffsets, boolean[] nullMask) {
    return decimal
        ? DecimalVector.ofBytes(type(), rows, bytes, outOffsets, nullMask)
        : new BinaryVector(type(), rows, bytes, outOffsets, nullMask);
  }

  @Override
  public boolean supportsBulk() {
    return source == Source.BYTES;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    // Batches of one column have similar value lengths: sizing from the last one (plus an eighth)
    // avoids both regrowing the array mid-batch and zeroing far more than is filled.
    long expected = rows * bulkBytesPerValue16 / 16;
    int capacity = (int) Math.min(Growth.MAX_ARRAY_LENGTH, expected + expected / 8 + 64);
    BinaryBuilder out = new BinaryBuilder(pages.arrays(), rows, capacity);
    boolean[] nullMask = pages.readBinary(out, rows);
    if (rows > 0) {
      bulkBytesPerValue16 = Math.max(1, (long) out.offsets()[rows] * 16 / rows);
    }
    return vector(rows, out.data(), out.offsets(), nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    if (source == Source.BYTES) {
      Binary binary = reader.getBinary();
      ByteBuffer value = binary.toByteBuffer();
      int n = value.remaining();
      reserve(n);
      value.get(data, dataLength, n);
      dataLength += n;
    } else {
      int n = int64Bytes(reader.getLong());
      reserve(n);
      System.arraycopy(scratch, 0, data, dataLength, n);
      dataLength += n;
    }
    offsets[++size] = dataLength;
  }

  private void reserve(int n) {
    if (data.length - dataLength < n) {
      data = Arrays.copyOf(data, Growth.grow(data.length, dataLength + n));
    }
  }

  @Override
  int capacity() {
    return offsets.length - 1;
  }

  @Override
  void growTo(int capacity) {
    offsets = Arrays.copyOf(offsets, capacity + 1);
  }

  @Override
  void afterNull() {
    offsets[size] = dataLength;
  }

  @Override
  public ColumnVector finish() {
    int n = size;
    byte[] outData = data;
    int[] outOffsets = offsets;
    data = new byte[0];
    dataLength = 0;
    offsets = new int[1];
    return vector(n, outData, outOffsets, takeNulls());
  }
}
