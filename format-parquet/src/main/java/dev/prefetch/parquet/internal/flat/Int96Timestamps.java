package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.LongVector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * INT96 timestamps: nanoseconds of the day (8 bytes) then the Julian day (4 bytes, signed, as Spark
 * and Impala write it), little endian; converted once per batch to microseconds or nanoseconds
 * since the epoch.
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
   * The timestamps of {@code type}'s unit, one per INT96 value (a {@link
   * ConvertedBinaryAdapter.Conversion}).
   */
  static ColumnVector vector(
      DataType type,
      VectorArrayPool arrays,
      byte[] data,
      int[] offsets,
      int rows,
      boolean[] nulls) {
    boolean nanos = type.timeUnit() == DataType.TimeUnit.NANOS;
    long[] out = arrays.values(long[].class, rows);
    for (int i = 0; i < rows; i++) {
      int start = offsets[i];
      int length = offsets[i + 1] - start;
      if (length == 0 && nulls != null && nulls[i]) {
        out[i] = 0;
        continue;
      }
      if (length != INT96_BYTES) {
        throw new IllegalStateException("INT96 value of " + length + " bytes, not 12");
      }
      long nanosOfDay = (long) LONG.get(data, start);
      long julianDay = (int) INT.get(data, start + 8);
      out[i] = nanos ? nanos(julianDay, nanosOfDay) : micros(julianDay, nanosOfDay);
    }
    return new LongVector(type, rows, out, nulls);
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
