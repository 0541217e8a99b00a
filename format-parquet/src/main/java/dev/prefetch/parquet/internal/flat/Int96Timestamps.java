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

  /**
   * Microseconds since the epoch: exact for every value that a long of microseconds holds (years
   * 290308 BC to 294247 AD), whatever the sign of the nanoseconds of the day (Spark writes a
   * negative one, with the day rounded towards zero, before the Julian epoch); beyond, a {@link
   * ValueOutOfRange} that marks the file corrupt (Spark, Impala and Hive write no such day; Arrow
   * C++ and DuckDB would wrap it).
   */
  static long micros(long julianDay, long nanosOfDay) {
    try {
      return since(julianDay, Math.floorDiv(nanosOfDay, NANOS_PER_MICRO), MICROS_PER_DAY);
    } catch (ArithmeticException e) {
      throw new ValueOutOfRange(
          "INT96 timestamp of Julian day "
              + julianDay
              + " and "
              + nanosOfDay
              + " nanoseconds of the day is outside the microseconds since the epoch that a long"
              + " holds (years 290308 BC to 294247 AD)",
          true);
    }
  }

  /**
   * Nanoseconds since the epoch, for years 1677 to 2262: a value outside fails with a {@link
   * ValueOutOfRange} that says so, not of a corrupt file (the reader reports it naming the file and
   * column).
   */
  static long nanos(long julianDay, long nanosOfDay) {
    try {
      return since(julianDay, nanosOfDay, NANOS_PER_DAY);
    } catch (ArithmeticException e) {
      throw new ValueOutOfRange(
          "INT96 timestamp of Julian day "
              + julianDay
              + " is outside the range of nanoseconds since the epoch (years 1677 to 2262); read it"
              + " as microseconds (parquet.read.int96-timestamp-unit=micros)",
          false);
    }
  }

  /**
   * {@code (julianDay - epoch) * perDay + ofDay}, in units of which a day has {@code perDay}; an
   * {@link ArithmeticException} when it does not fit a long.
   *
   * <p>The product alone may overflow where the sum fits (a day before the earliest whole day a
   * long holds, which the time of day brings back in), so the time of day's whole days are carried
   * into the day first and, before the epoch, one day is carried back out: the product then lies
   * between the value and 0, and the remainder, in {@code (-perDay, 0]} there, takes it to the
   * value. So only a value beyond a long fails.
   */
  private static long since(long julianDay, long ofDay, long perDay) {
    // julianDay is an int and ofDay / perDay at most a long over a day: no overflow here
    long days = julianDay - JULIAN_DAY_OF_EPOCH + Math.floorDiv(ofDay, perDay);
    long within = Math.floorMod(ofDay, perDay);
    if (days < 0 && within > 0) {
      days += 1;
      within -= perDay;
    }
    return Math.addExact(Math.multiplyExact(days, perDay), within);
  }
}
