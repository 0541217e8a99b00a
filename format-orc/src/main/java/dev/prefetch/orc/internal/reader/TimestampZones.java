package dev.prefetch.orc.internal.reader;

import java.io.IOException;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The time zone arithmetic of orc-core's timestamp reader, which the read's values must match: a
 * {@code timestamp}'s seconds count from 2015-01-01 00:00:00 in the writer's time zone (the
 * stripe's, else the JVM's default), and the read, which uses orc-core's UTC option, moves each
 * value from the writer's zone to UTC where their rules differ; {@code timestamp with local time
 * zone} counts from that instant in UTC and is never moved.
 */
final class TimestampZones {

  static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  /** The base of each writer's zone, in seconds since the epoch, as orc-core parses it. */
  private static final ConcurrentHashMap<String, Long> BASES = new ConcurrentHashMap<>();

  private TimestampZones() {}

  /** Seconds since the epoch at 2015-01-01 00:00:00 in {@code zone}, as orc-core computes them. */
  static long baseSeconds(TimeZone zone) throws IOException {
    Long known = BASES.get(zone.getID());
    if (known != null) {
      return known;
    }
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss");
    format.setTimeZone(zone);
    try {
      long seconds = format.parse("2015-01-01 00:00:00").getTime() / 1000;
      BASES.put(zone.getID(), seconds);
      return seconds;
    } catch (ParseException e) {
      throw new IOException("cannot compute the timestamp base of time zone " + zone.getID(), e);
    }
  }

  /**
   * The writer's zone of a {@code timestamp} column of a stripe whose footer names {@code
   * writerTimezone} ("" for none, then {@code defaultZone}); orc-core's lookup, which falls back to
   * GMT for an id it does not know.
   */
  static TimeZone writerZone(String writerTimezone, TimeZone defaultZone) {
    return writerTimezone == null || writerTimezone.isEmpty()
        ? defaultZone
        : TimeZone.getTimeZone(writerTimezone);
  }
}
