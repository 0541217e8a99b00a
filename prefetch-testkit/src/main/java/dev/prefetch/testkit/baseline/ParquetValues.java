package dev.prefetch.testkit.baseline;

import java.math.BigInteger;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * How parquet-hadoop's physical values are fed to the checksum: the reader's documented type
 * mapping (README, "Type mapping") applied to what a {@link ColumnReader} returns, shared by the
 * flat and the nested walk of {@link ParquetBaseline}.
 */
final class ParquetValues {

  private static final long JULIAN_EPOCH_DAY = 2_440_588L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private ParquetValues() {}

  /**
   * How a leaf column's values are fed: the reader's documented type mapping applied to
   * parquet-hadoop's physical values (README, "Type mapping").
   */
  enum ValueKind {
    LONG,
    INT,
    UINT32,
    UINT64,
    BOOLEAN,
    FLOAT,
    DOUBLE,
    FLOAT16,
    BYTES,
    DECIMAL_BYTES_LONG,
    DECIMAL_BYTES_WIDE,
    INT96_MICROS,
    INT96_NANOS
  }

  static ValueKind kindOf(PrimitiveType type, boolean int96Nanos) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    boolean decimal = logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
    boolean unsigned =
        logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return ValueKind.BOOLEAN;
      case INT32:
        // INT(8/16, unsigned) values are small and non-negative as stored; INT(32, unsigned)
        // uses the sign bit
        return unsigned
                && ((LogicalTypeAnnotation.IntLogicalTypeAnnotation) logical).getBitWidth() == 32
            ? ValueKind.UINT32
            : ValueKind.INT;
      case INT64:
        return unsigned ? ValueKind.UINT64 : ValueKind.LONG;
      case FLOAT:
        return ValueKind.FLOAT;
      case DOUBLE:
        return ValueKind.DOUBLE;
      case INT96:
        return int96Nanos ? ValueKind.INT96_NANOS : ValueKind.INT96_MICROS;
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (decimal) {
          int precision =
              ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) logical).getPrecision();
          return precision <= 18 ? ValueKind.DECIMAL_BYTES_LONG : ValueKind.DECIMAL_BYTES_WIDE;
        }
        if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
            && type.getTypeLength() == 2) {
          return ValueKind.FLOAT16;
        }
        return ValueKind.BYTES;
      default:
        throw new IllegalStateException("unknown type " + type);
    }
  }

  /** Feeds the reader's current (non-null) value. */
  static void feed(ValueKind kind, ColumnReader reader, int column, ValueSink sums) {
    switch (kind) {
      case LONG -> sums.addLong(column, reader.getLong());
      case INT -> sums.addLong(column, reader.getInteger());
      case UINT32 -> sums.addLong(column, reader.getInteger() & 0xFFFF_FFFFL);
      case UINT64 -> feedUnsigned64(reader.getLong(), column, sums);
      case BOOLEAN -> sums.addLong(column, reader.getBoolean() ? 1 : 0);
      case FLOAT -> sums.addDouble(column, reader.getFloat());
      case DOUBLE -> sums.addDouble(column, reader.getDouble());
      default -> feedBinary(kind, reader.getBinary(), column, sums);
    }
  }

  /** INT(64, unsigned) maps to DECIMAL(20, 0): the minimal bytes of the unsigned value. */
  static void feedUnsigned64(long value, int column, ValueSink sums) {
    byte[] bytes = new BigInteger(Long.toUnsignedString(value)).toByteArray();
    sums.addBytes(column, bytes, 0, bytes.length);
  }

  /**
   * An IEEE 754 half-precision value (little endian, as FLOAT16 is stored) widened to float,
   * exactly: every half value is a float value.
   */
  static float halfToFloat(int bits) {
    int sign = (bits >>> 15) & 1;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0) {
      magnitude = mantissa * 0x1p-24f; // subnormal (or zero)
    } else if (exponent == 31) {
      magnitude = mantissa == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      magnitude = (1 + mantissa / 1024f) * (float) Math.pow(2, exponent - 15);
    }
    return sign == 1 ? -magnitude : magnitude;
  }

  static void feedBinary(ValueKind kind, Binary binary, int column, ValueSink sums) {
    byte[] bytes = binary.getBytesUnsafe();
    switch (kind) {
      case BYTES -> sums.addBytes(column, bytes, 0, bytes.length);
      case FLOAT16 ->
          sums.addDouble(column, halfToFloat((bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8));
      case DECIMAL_BYTES_LONG ->
          sums.addLong(column, bytes.length == 0 ? 0 : new BigInteger(bytes).longValue());
      case DECIMAL_BYTES_WIDE -> {
        byte[] minimal = bytes.length == 0 ? new byte[] {0} : new BigInteger(bytes).toByteArray();
        sums.addBytes(column, minimal, 0, minimal.length);
      }
      case INT96_MICROS, INT96_NANOS -> {
        // 8 bytes little-endian nanos of day, then 4 bytes little-endian (signed) Julian day.
        long nanosOfDay = 0;
        for (int i = 7; i >= 0; i--) {
          nanosOfDay = (nanosOfDay << 8) | (bytes[i] & 0xFFL);
        }
        long julianDay =
            (bytes[8] & 0xFFL)
                | (bytes[9] & 0xFFL) << 8
                | (bytes[10] & 0xFFL) << 16
                | (long) bytes[11] << 24;
        // Microseconds since the epoch (the default mapping): the signed day times a day's
        // microseconds plus the whole microseconds of the day (floored), or nanoseconds. A value
        // outside a long fails as the reader fails, never wraps; one inside is exact even where
        // the day's product alone leaves a long (a day before the earliest whole day a long
        // holds, brought back in by its time of day): that rare case is summed exactly.
        boolean micros = kind == ValueKind.INT96_MICROS;
        long perDay = micros ? MICROS_PER_DAY : MICROS_PER_DAY * 1000L;
        long ofDay = micros ? Math.floorDiv(nanosOfDay, 1000L) : nanosOfDay;
        long value;
        try {
          value = Math.addExact(Math.multiplyExact(julianDay - JULIAN_EPOCH_DAY, perDay), ofDay);
        } catch (ArithmeticException e) {
          value =
              BigInteger.valueOf(julianDay - JULIAN_EPOCH_DAY)
                  .multiply(BigInteger.valueOf(perDay))
                  .add(BigInteger.valueOf(ofDay))
                  .longValueExact();
        }
        sums.addLong(column, value);
      }
      default -> throw new IllegalStateException("not a binary kind " + kind);
    }
  }
}
