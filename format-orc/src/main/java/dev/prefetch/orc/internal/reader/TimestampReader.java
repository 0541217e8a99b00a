package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.LongVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.orc.internal.stream.TimestampDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.TimeZone;
import org.apache.hadoop.hive.common.type.CalendarUtils;
import org.apache.orc.impl.SerializationUtils;

/**
 * A {@code timestamp} or {@code timestamp with local time zone} column: seconds in DATA,
 * nanoseconds in SECONDARY, into a {@link LongVector} of nanoseconds since 1970-01-01T00:00, the
 * wall clock of the writer (plain timestamps) or UTC (with local time zone), as orc-core's reader
 * reads them with its UTC option ({@link TimestampZones}); then, for a file written in the
 * proleptic calendar, moved to the hybrid one before 1582 as orc-core moves them.
 *
 * <p>A value outside the years 1677 to 2262 does not fit nanoseconds in 64 bits: the read fails
 * with a {@link ValueRangeException} naming the column, as the file is valid.
 */
final class TimestampReader extends ColumnReader {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final DataType type;
  private final TimestampDecoder data;

  /** The writer's zone when its rules differ from UTC's (values move to UTC), else null. */
  private final TimeZone writerZone;

  private final boolean toHybrid;
  private long[] seconds = new long[0];
  private int[] nanos = new int[0];

  TimestampReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      StreamInput secondary,
      boolean rleV2,
      TimeZone writerZone,
      boolean toHybrid,
      VectorArrayPool pool)
      throws IOException {
    super(column, where, present, pool);
    this.type = type;
    this.data =
        new TimestampDecoder(
            IntegerDecoder.create(owned(data), true, rleV2),
            IntegerDecoder.create(owned(secondary), false, rleV2),
            TimestampZones.baseSeconds(writerZone));
    this.writerZone = writerZone.hasSameRules(TimestampZones.UTC) ? null : writerZone;
    this.toHybrid = toHybrid;
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    if (seconds.length < count) {
      seconds = new long[Math.max(count, seconds.length * 2)];
      nanos = new int[seconds.length];
    }
    long[] s = seconds;
    int[] n = nanos;
    data.decode(s, n, 0, count);
    long[] values = pool.values(long[].class, rows);
    if (writerZone == null && !toHybrid) {
      for (int j = 0; j < count; j++) {
        values[j] = nanosOf(s[j], n[j], j);
      }
    } else {
      for (int j = 0; j < count; j++) {
        values[j] = nanosOf(adjusted(s[j], n[j]), n[j], j);
      }
    }
    if (nulls != null) {
      Spread.longs(values, nulls, rows, count);
    }
    return new LongVector(type, rows, values, nulls);
  }

  /**
   * The seconds of a value once moved from the writer's zone to UTC and to the hybrid calendar,
   * with orc-core's arithmetic on milliseconds.
   */
  private long adjusted(long second, int nano) {
    long millis = second * 1000 + nano / 1_000_000;
    if (writerZone != null) {
      millis += SerializationUtils.convertBetweenTimezones(writerZone, TimestampZones.UTC, millis);
    }
    if (toHybrid && millis < CalendarUtils.SWITCHOVER_MILLIS) {
      millis = CalendarUtils.convertTimeToHybrid(millis);
    }
    return Math.floorDiv(millis, 1000L);
  }

  private long nanosOf(long second, int nano, int value) throws ValueRangeException {
    try {
      return Math.addExact(Math.multiplyExact(second, NANOS_PER_SECOND), nano);
    } catch (ArithmeticException e) {
      throw new ValueRangeException(
          where
              + ": a timestamp of "
              + second
              + " seconds since 1970 (the "
              + (value + 1)
              + "th of its batch) does not fit nanoseconds in 64 bits (years 1677 to 2262)");
    }
  }

  @Override
  protected void skipValues(long values) throws IOException {
    data.skip(values);
  }

  @Override
  protected void seekValues(IndexPositions positions) throws IOException {
    data.seek(positions);
  }
}
