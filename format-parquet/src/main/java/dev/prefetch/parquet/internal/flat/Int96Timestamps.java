package dev.prefetch.parquet.internal.flat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * INT96 timestamps: nanoseconds of the day (8 bytes) then the Julian day (4 bytes, signed, as Spark
 * and Impala write it), little endian; converted (by {@link BinaryConversion#INT96}) to
 * microseconds or nanoseconds since the epoch.
 */
final class Int96Timestamps {

  /** Bytes of an INT96 value. */
  static final int INT96_BYTES = 12;

  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private Int96Timestamps() {}

  /**
   * The timestamp of the INT96 value at {@code data[start..start+length)}, in nanoseconds or else
   * microseconds since the epoch; 0 for a null's empty value.
   */
  static long value(byte[] data, int start, int length, boolean isNull, boolean nanos) {
    if (length == 0 && isNull) {
      return 0;
    }
    if (length != INT96_BYTES) {
      throw new IllegalStateException("INT96 value of " + length + " bytes, not 12");
    }
    long nanosOfDay = (long) LONG.get(data, start);
    long julianDay = (int) INT.get(data, start + 8);
    return nanos ? nanos(julianDay, nanosOfDay) : micros(julianDay, nanosOfDay);
  }

  /** Microseconds since the epoch: every Julian day of an int fits, so no value fails. */
  static long micros(long julianDay, long nanosOfDay) {
    return Math.addExact(
        Math.multiplyExact(julianDay - JULIAN_DAY_OF_EPOCH, MICROS_PER_DAY),
        Math.floorDiv(nanosOfDay, NANOS_PER_MICRO));
  }

  /**
   * Nanoseconds since the epoch, for years 1677 to 2262: a value outside fails with an {@link
   * ArithmeticException} that says so (the reader reports it naming the file).
   */
  static long nanos(long julianDay, long nanosOfDay) {
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
}
