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

  private final DataType type;
  private final TimestampDecoder data;

  /** The writer's zone when its rules differ from UTC's (values move to UTC), else null. */
  private final TimeZone writerZone;

  private final boolean toHybrid;
  private long[] millis = new long[0];
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
    if (millis.length < count) {
      millis = new long[Math.max(count, millis.length * 2)];
      nanos = new int[millis.length];
    }
    long[] ms = millis;
    int[] ns = nanos;
    data.decode(ms, ns, 0, count);
    long[] values = pool.values(long[].class, rows);
    if (writerZone == null && !toHybrid) {
      for (int j = 0; j < count; j++) {
        values[j] = nanosOf(ms[j], ns[j]);
      }
    } else {
      for (int j = 0; j < count; j++) {
        values[j] = nanosOf(adjusted(ms[j], ns[j]), ns[j]);
      }
    }
    if (nulls != null) {
      Spread.longs(values, nulls, rows, count);
    }
    return new LongVector(type, rows, values, nulls);
  }

  /**
   * A value's milliseconds once moved from the writer's zone to UTC and to the hybrid calendar, as
   * orc-core's reader and its vector move them.
   */
  private long adjusted(long time, int nano) throws IOException {
    if (writerZone != null) {
      time += SerializationUtils.convertBetweenTimezones(writerZone, TimestampZones.UTC, time);
    }
    if (toHybrid && time < CalendarUtils.SWITCHOVER_MILLIS) {
      if (nano < 0 || nano > 999_999_999) {
        // orc-core's vector cannot hold it in a java.sql.Timestamp to move it
        throw new dev.prefetch.CorruptFileException(
            "Corrupt " + where + ": a timestamp of " + nano + " nanoseconds in its second");
      }
      long hybrid =
          CalendarUtils.convertTimeToHybrid(Math.floorDiv(time, 1000L) * 1000 + nano / 1_000_000);
      time = Math.floorDiv(hybrid, 1000L) * 1000 + nano / 1_000_000;
    }
    return time;
  }

  /**
   * Nanoseconds since the epoch of orc-core's milliseconds and nanoseconds: the second's
   * milliseconds are {@code time - nano / 10^6} whatever the sign of {@code nano}, so a value is
   * counted from its second as its writer meant (as the previous read path counted it).
   */
  private long nanosOf(long time, int nano) throws ValueRangeException {
    try {
      return Math.addExact(
          Math.multiplyExact(Math.subtractExact(time, nano / 1_000_000), 1_000_000L), nano);
    } catch (ArithmeticException e) {
      throw new ValueRangeException(
          where,
          "a timestamp outside the years 1677 to 2262, which nanoseconds since the epoch hold ("
              + Math.floorDiv(time, 1000L)
              + " seconds since 1970)");
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
