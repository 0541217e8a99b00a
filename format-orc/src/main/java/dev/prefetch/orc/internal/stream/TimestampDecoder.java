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
 * <p>Decoded to seconds since the epoch and nanoseconds of that second, as orc-core and the C++
 * reader read them: the writers truncate seconds toward zero, so a value before the epoch with a
 * nanosecond part of a millisecond or more is stored one second late, and is moved back here. The
 * column reader converts between time zones where the kind asks for it.
 *
 * <p>A nanosecond value of a second or more is corrupt. Confined to one thread.
 */
public final class TimestampDecoder {

  private static final int MAX_NANOS = 999_999_999;

  private static final long[] POWERS_OF_TEN = {
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
   * Decodes the next {@code count} values: seconds since the epoch into {@code epochSeconds}, the
   * nanoseconds of that second (0 to 999,999,999) into {@code nanoseconds}, from {@code offset}.
   */
  public void decode(long[] epochSeconds, int[] nanoseconds, int offset, int count)
      throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, nanoseconds.length);
    seconds.decode(epochSeconds, offset, count);
    long base = baseSeconds;
    for (int done = 0; done < count; ) {
      int n = Math.min(CHUNK, count - done);
      nanos.decode(scratch, 0, n);
      int at = offset + done;
      for (int i = 0; i < n; i++) {
        long serialized = scratch[i];
        int zeros = (int) serialized & 7;
        long value = serialized >>> 3;
        if (zeros != 0) {
          value *= POWERS_OF_TEN[zeros + 1];
        }
        if (value > MAX_NANOS || (serialized >>> 3) > MAX_NANOS) {
          throw new CorruptStreamException(
              nanos.input().name(),
              "a timestamp of "
                  + Long.toUnsignedString(serialized >>> 3)
                  + " x 10^"
                  + (zeros == 0 ? 0 : zeros + 1)
                  + " nanoseconds, a second or more");
        }
        long s = epochSeconds[at + i] + base;
        if (s < 0 && value > 999_999) {
          s -= 1;
        }
        epochSeconds[at + i] = s;
        nanoseconds[at + i] = (int) value;
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
