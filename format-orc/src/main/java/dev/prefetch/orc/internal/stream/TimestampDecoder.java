package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import java.util.Objects;

/**
 * A {@code timestamp} column's values: seconds from the base (2015-01-01 00:00:00 in the writer's
 * time zone for {@code timestamp}, in UTC for {@code timestamp with local time zone}) as signed
 * integers in DATA, and nanoseconds as unsigned integers in SECONDARY, whose low 3 bits {@code z}
 * say that {@code z + 1} trailing decimal zeros were dropped ({@code z = 0}: none).
 *
 * <p>Decoded as orc-core's reader decodes them, arithmetic included, since that is what readers of
 * the file see: the nanoseconds as a 32-bit int ({@code (int) (n >>> 3)} times the power of ten, in
 * int arithmetic), and the milliseconds since the epoch as the second's milliseconds plus those of
 * the nanoseconds; the writers truncate seconds toward zero, so a value before the epoch with a
 * nanosecond part of a millisecond or more is stored one second late, and is moved back here. A
 * nanosecond value out of the format's range (a second or more, or negative once narrowed, as
 * Arrow's ORC writer stores some values before 1970) is not refused: orc-core reads it as it is,
 * and the column reader counts it from its second as orc-core's values do. The column reader
 * converts between time zones where the kind asks for it.
 *
 * <p>Confined to one thread.
 */
public final class TimestampDecoder {

  private static final int[] POWERS_OF_TEN = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };

  /** Values decoded per step into the scratch array of serialized nanoseconds. */
  private static final int CHUNK = 1024;

  private final IntegerDecoder seconds;
  private final IntegerDecoder nanos;
  private final long baseSeconds;
  private final long[] scratch = new long[CHUNK];

  /**
   * @param seconds DATA's signed integer decoder
   * @param nanos SECONDARY's unsigned integer decoder
   * @param baseSeconds the base, in seconds since the epoch: 1,420,070,400 for UTC
   */
  public TimestampDecoder(IntegerDecoder seconds, IntegerDecoder nanos, long baseSeconds) {
    this.seconds = Objects.requireNonNull(seconds, "seconds is null");
    this.nanos = Objects.requireNonNull(nanos, "nanos is null");
    this.baseSeconds = baseSeconds;
  }

  /**
   * Decodes the next {@code count} values: milliseconds since the epoch into {@code epochMillis}
   * (the second's, plus the milliseconds of the nanoseconds), the nanoseconds of that second into
   * {@code nanoseconds}, from {@code offset}.
   */
  public void decode(long[] epochMillis, int[] nanoseconds, int offset, int count)
      throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, nanoseconds.length);
    seconds.decode(epochMillis, offset, count);
    long base = baseSeconds;
    for (int done = 0; done < count; ) {
      int n = Math.min(CHUNK, count - done);
      nanos.decode(scratch, 0, n);
      int at = offset + done;
      for (int i = 0; i < n; i++) {
        long serialized = scratch[i];
        int zeros = (int) serialized & 7;
        int value = (int) (serialized >>> 3);
        if (zeros != 0) {
          value *= POWERS_OF_TEN[zeros + 1];
        }
        long millis = (epochMillis[at + i] + base) * 1000 + value / 1_000_000;
        if (millis < 0 && value > 999_999) {
          millis -= 1000;
        }
        epochMillis[at + i] = millis;
        nanoseconds[at + i] = value;
      }
      done += n;
    }
  }

  /** Passes over the next {@code count} values. */
  public void skip(long count) throws CorruptStreamException {
    seconds.skip(count);
    nanos.skip(count);
  }

  /** Seeks to a row index position: DATA's positions, then SECONDARY's. */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    seconds.seek(positions);
    nanos.seek(positions);
  }
}
