package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.parquet.internal.bulk.FlatPageReader;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

/**
 * Columns whose values become {@code long}s: INT64 (plain, timestamps, times, decimals), INT32
 * widened (TIME(MILLIS), INT(32, unsigned), decimals), big-endian BINARY / FIXED_LEN_BYTE_ARRAY
 * decimals of precision at most 18, and INT96 timestamps (as microseconds or nanoseconds since the
 * epoch). The source is a constructor argument so that the tight loop switches on a final field.
 */
public final class LongDecoder extends BaseDecoder {

  /** Where a value comes from. */
  public enum Source {
    INT64,
    INT32,
    UINT32,
    BIG_ENDIAN_BYTES,
    INT96_MICROS,
    INT96_NANOS
  }

  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final Source source;
  private final boolean decimal;
  private long[] values = new long[0];

  public LongDecoder(DataType type, Source source) {
    super(type);
    this.source = source;
    this.decimal = type.kind() == DataType.Kind.DECIMAL;
  }

  private long read(ColumnReader reader) {
    switch (source) {
      case INT64:
        return reader.getLong();
      case INT32:
        return reader.getInteger();
      case UINT32:
        return reader.getInteger() & 0xFFFF_FFFFL;
      case BIG_ENDIAN_BYTES:
        return bigEndian(reader.getBinary());
      case INT96_MICROS:
        return int96Micros(reader.getBinary());
      case INT96_NANOS:
        return int96Nanos(reader.getBinary());
      default:
        throw new AssertionError(source);
    }
  }

  /** A big-endian two's complement integer that fits a long (decimal precision &le; 18). */
  static long bigEndian(Binary value) {
    ByteBuffer buffer = value.toByteBuffer();
    int p = buffer.position();
    int end = buffer.limit();
    if (p == end) {
      return 0;
    }
    long v = buffer.get(p); // sign-extended first byte
    for (int i = p + 1; i < end; i++) {
      v = (v << 8) | (buffer.get(i) & 0xFF);
    }
    return v;
  }

  /**
   * INT96: nanoseconds of the day (8 bytes) then the Julian day (4 bytes, signed, as Spark and
   * Impala write it), little endian; as microseconds since the epoch. Every Julian day of an int
   * fits, so no value fails.
   */
  static long int96Micros(Binary value) {
    ByteBuffer buffer = int96Bytes(value);
    int p = buffer.position();
    long nanosOfDay = buffer.getLong(p);
    long julianDay = buffer.getInt(p + 8);
    return Math.addExact(
        Math.multiplyExact(julianDay - JULIAN_DAY_OF_EPOCH, MICROS_PER_DAY),
        Math.floorDiv(nanosOfDay, NANOS_PER_MICRO));
  }

  /**
   * INT96 as nanoseconds since the epoch, for years 1677 to 2262: a value outside fails with an
   * {@link ArithmeticException} that says so (the reader reports it naming the file).
   */
  static long int96Nanos(Binary value) {
    ByteBuffer buffer = int96Bytes(value);
    int p = buffer.position();
    long nanosOfDay = buffer.getLong(p);
    long julianDay = buffer.getInt(p + 8);
    try {
      return Math.addExact(
          Math.multiplyExact(julianDay - JULIAN_DAY_OF_EPOCH, NANOS_PER_DAY), nanosOfDay);
    } catch (ArithmeticException e) {
      throw new ArithmeticException(
          "INT96 timestamp of Julian day "
              + julianDay
              + " is outside the range of nanoseconds since the epoch (years 1677 to 2262); read it"
              + " as microseconds (parquet.read.int96-timestamp-unit=micros)");
    }
  }

  private static ByteBuffer int96Bytes(Binary value) {
    ByteBuffer buffer = value.toByteBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    if (buffer.remaining() != 12) {
      throw new IllegalStateException("INT96 value of " + buffer.remaining() + " bytes, not 12");
    }
    return buffer;
  }

  private ColumnVector vector(int rows, long[] out, boolean[] nullMask) {
    return decimal
        ? DecimalVector.ofLongs(type(), rows, out, nullMask)
        : new LongVector(type(), rows, out, nullMask);
  }

  @Override
  public boolean supportsBulk() {
    return source == Source.INT64 || source == Source.INT32 || source == Source.UINT32;
  }

  @Override
  public ColumnVector decodeBulk(FlatPageReader pages, int rows) {
    long[] out = pages.arrays().longs(rows);
    if (source == Source.INT64) {
      return vector(rows, out, pages.readLongs(out, rows));
    }
    int[] physical = scratch(rows);
    boolean[] nullMask = pages.readInts(physical, rows);
    if (source == Source.UINT32) {
      for (int i = 0; i < rows; i++) {
        out[i] = physical[i] & 0xFFFF_FFFFL;
      }
    } else {
      for (int i = 0; i < rows; i++) {
        out[i] = physical[i];
      }
    }
    return vector(rows, out, nullMask);
  }

  @Override
  public void appendValue(ColumnReader reader) {
    ensureRoom();
    values[size++] = read(reader);
  }

  @Override
  int capacity() {
    return values.length;
  }

  @Override
  void growTo(int capacity) {
    values = Arrays.copyOf(values, capacity);
  }

  @Override
  public ColumnVector finish() {
    int n = size;
    long[] out = values;
    values = new long[0];
    return vector(n, out, takeNulls());
  }
}
