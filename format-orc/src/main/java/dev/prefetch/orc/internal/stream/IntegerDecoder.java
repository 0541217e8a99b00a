package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Objects;

/**
 * An integer stream (integer RLE v1 or v2, signed or unsigned), decoded a run at a time into
 * primitive arrays: the DATA of integer and date columns, the LENGTH of strings, binaries, lists
 * and maps, dictionary ids, decimal scales, timestamp seconds and nanoseconds.
 *
 * <p>How it decodes: a run (up to 512 values in v2, 130 in v1) whose values all fit the caller's
 * request is decoded straight into the caller's {@code long[]}; a run that straddles the end of a
 * request is decoded into this decoder's buffer, and the rest of it serves the next request. The
 * encoding's code is called once per run, never per value. {@code int[]} requests go through the
 * buffer and are narrowed there in one counted loop.
 *
 * <p>Skipping passes over whole runs without unpacking them (their byte lengths follow from their
 * headers); only the run a skip ends inside is decoded.
 *
 * <p>Errors: a run header that the encoding cannot have, a run whose bytes the stream does not
 * hold, a request for more values than the stream holds, a length or id outside its bounds: a
 * {@link CorruptStreamException}. Confined to one thread.
 */
public abstract sealed class IntegerDecoder permits RleV1IntegerDecoder, RleV2IntegerDecoder {

  /** The most values one run holds (RLE v2's 512; RLE v1's is 130). */
  static final int MAX_RUN = 512;

  /** Values decoded per step of a skip or a length sum. */
  private static final int CHUNK = 1024;

  final StreamInput input;
  final boolean signed;

  /** The rest of the run that straddled the end of the last request: {@code [used, buffered)}. */
  private final long[] buffer = new long[MAX_RUN];

  private int used;
  private int buffered;

  /** Scratch for skips and sums over {@code int} lengths. */
  private int[] chunk;

  IntegerDecoder(StreamInput input, boolean signed) {
    this.input = Objects.requireNonNull(input, "input is null");
    this.signed = signed;
  }

  /**
   * The decoder of {@code input}: RLE v2 when the column's encoding is {@code DIRECT_V2} or {@code
   * DICTIONARY_V2}, RLE v1 when it is {@code DIRECT} or {@code DICTIONARY}; signed (zigzag) for
   * values, unsigned for lengths, ids and nanoseconds.
   */
  public static IntegerDecoder create(StreamInput input, boolean signed, boolean rleV2) {
    return rleV2 ? new RleV2IntegerDecoder(input, signed) : new RleV1IntegerDecoder(input, signed);
  }

  /** The stream this decoder reads. */
  public final StreamInput input() {
    return input;
  }

  /**
   * The length of the next run (at least 1), read from its header without consuming it.
   *
   * @throws CorruptStreamException at the stream's end or on a header the encoding cannot have
   */
  abstract int peekRunLength() throws CorruptStreamException;

  /** Decodes the run {@link #peekRunLength()} measured into {@code out[at, at + length)}. */
  abstract void readRun(long[] out, int at, int length) throws CorruptStreamException;

  /** Passes over the run {@link #peekRunLength()} measured, decoding nothing. */
  abstract void skipRun(int length) throws CorruptStreamException;

  /** The most values one byte of this encoding can hold (for {@link #maxRemainingValues()}). */
  abstract int maxValuesPerByte();

  /**
   * Decodes the next {@code count} values into {@code out[offset, offset + count)}.
   *
   * @throws CorruptStreamException when the stream holds fewer values, or a run is corrupt
   */
  public final void decode(long[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int end = offset + count;
    while (offset < end) {
      if (used < buffered) {
        int n = Math.min(buffered - used, end - offset);
        System.arraycopy(buffer, used, out, offset, n);
        used += n;
        offset += n;
        continue;
      }
      int run = peekRunLength();
      if (run <= end - offset) {
        readRun(out, offset, run);
        offset += run;
      } else {
        readRun(buffer, 0, run);
        used = 0;
        buffered = run;
      }
    }
  }

  /**
   * Decodes the next {@code count} values into {@code out[offset, offset + count)}, each narrowed
   * to its low 32 bits (as orc-core's readers narrow an {@code int}, {@code smallint} or {@code
   * date} column's values).
   */
  public final void decode(int[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int end = offset + count;
    while (offset < end) {
      int n = fill(end - offset);
      long[] b = buffer;
      int u = used;
      for (int i = 0; i < n; i++) {
        out[offset + i] = (int) b[u + i];
      }
      used = u + n;
      offset += n;
    }
  }

  /**
   * Decodes the next {@code count} values into {@code out[offset, offset + count)}, each narrowed
   * to its low 16 bits (as orc-core's reader narrows a {@code smallint} column's values).
   */
  public final void decode(short[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int end = offset + count;
    while (offset < end) {
      int n = fill(end - offset);
      long[] b = buffer;
      int u = used;
      for (int i = 0; i < n; i++) {
        out[offset + i] = (short) b[u + i];
      }
      used = u + n;
      offset += n;
    }
  }

  /**
   * Decodes the next {@code count} lengths (of strings, binaries, lists, maps, dictionary entries)
   * into {@code out[offset, offset + count)}.
   *
   * @return their sum
   * @throws CorruptStreamException when a length is negative or above {@code Integer.MAX_VALUE}
   *     (read as unsigned, past {@code 2^63})
   */
  public final long decodeLengths(int[] out, int offset, int count) throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int end = offset + count;
    long sum = 0;
    while (offset < end) {
      int n = fill(end - offset);
      long[] b = buffer;
      int u = used;
      long bad = 0;
      for (int i = 0; i < n; i++) {
        long v = b[u + i];
        // a length fits an int and is not negative: no bit above the 31st is set
        bad |= v;
        out[offset + i] = (int) v;
        sum += v;
      }
      if ((bad & 0xFFFF_FFFF_8000_0000L) != 0) {
        throw badLength(b, u, n);
      }
      used = u + n;
      offset += n;
    }
    return sum;
  }

  private CorruptStreamException badLength(long[] b, int from, int n) {
    for (int i = from; i < from + n; i++) {
      if (b[i] < 0 || b[i] > Integer.MAX_VALUE) {
        return new CorruptStreamException(
            input.name(),
            "a length of "
                + (signed ? Long.toString(b[i]) : Long.toUnsignedString(b[i]))
                + ", outside [0, "
                + Integer.MAX_VALUE
                + "]");
      }
    }
    throw new AssertionError("no bad length among " + n);
  }

  /**
   * Decodes the next {@code count} dictionary ids into {@code out[offset, offset + count)}.
   *
   * @throws CorruptStreamException when an id is not below {@code dictionarySize}
   */
  public final void decodeIds(int[] out, int offset, int count, int dictionarySize)
      throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, out.length);
    int end = offset + count;
    while (offset < end) {
      int n = fill(end - offset);
      long[] b = buffer;
      int u = used;
      // the largest id as unsigned (flipping the sign bit orders unsigned values as signed ones)
      long max = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        long v = b[u + i];
        max = Math.max(max, v ^ Long.MIN_VALUE);
        out[offset + i] = (int) v;
      }
      if (Long.compareUnsigned(max ^ Long.MIN_VALUE, dictionarySize) >= 0) {
        for (int i = u; i < u + n; i++) {
          if (Long.compareUnsigned(b[i], dictionarySize) >= 0) {
            throw new CorruptStreamException(
                input.name(),
                "dictionary id "
                    + Long.toUnsignedString(b[i])
                    + " of a dictionary of "
                    + dictionarySize
                    + " entries");
          }
        }
      }
      used = u + n;
      offset += n;
    }
  }

  /**
   * Makes values buffered, decoding the next run into the buffer when none are left.
   *
   * @return how many of the at most {@code wanted} buffered values may be taken
   */
  private int fill(int wanted) throws CorruptStreamException {
    if (used == buffered) {
      int run = peekRunLength();
      readRun(buffer, 0, run);
      used = 0;
      buffered = run;
    }
    return Math.min(buffered - used, wanted);
  }

  /**
   * Passes over the next {@code count} values.
   *
   * @throws CorruptStreamException when the stream holds fewer
   */
  public final void skip(long count) throws CorruptStreamException {
    if (count < 0) {
      throw new IllegalArgumentException("negative skip " + count);
    }
    long left = count;
    int n = (int) Math.min(left, buffered - used);
    used += n;
    left -= n;
    while (left > 0) {
      int run = peekRunLength();
      if (run <= left) {
        skipRun(run);
        left -= run;
      } else {
        readRun(buffer, 0, run);
        used = (int) left;
        buffered = run;
        left = 0;
      }
    }
  }

  /**
   * Decodes the next {@code count} lengths only to sum them (a string column skipping values must
   * skip their bytes).
   */
  public final long skipLengths(long count) throws CorruptStreamException {
    if (chunk == null) {
      chunk = new int[CHUNK];
    }
    long sum = 0;
    long left = count;
    while (left > 0) {
      int n = (int) Math.min(left, CHUNK);
      sum += decodeLengths(chunk, 0, n);
      left -= n;
    }
    return sum;
  }

  /**
   * Seeks to a row index position: the stream's position (see {@link
   * StreamInput#seek(IndexPositions)}), then the values of the run there to skip.
   */
  public final void seek(IndexPositions positions) throws CorruptStreamException {
    input.seek(positions);
    used = 0;
    buffered = 0;
    skip(positions.next(input.name()));
  }

  /**
   * The most values the stream can still hold: what is buffered, plus the stream's remaining bytes
   * times the most values a byte of the encoding holds. Checked before allocating for a count read
   * from elsewhere (a dictionary's size).
   */
  public final long maxRemainingValues() {
    long bytes = input.maxRemainingBytes();
    long perByte = maxValuesPerByte();
    return (buffered - used)
        + (bytes > Long.MAX_VALUE / perByte ? Long.MAX_VALUE : bytes * perByte);
  }

  final CorruptStreamException endOfStream() {
    return new CorruptStreamException(
        input.name(), "the stream ends, but more values are wanted from it");
  }
}
