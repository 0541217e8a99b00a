package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import java.util.Objects;

/**
 * A {@code decimal} column's values in the varint encoding (ORC v1's {@code DIRECT} and {@code
 * DIRECT_V2}): each unscaled value an unbounded zigzag-encoded base-128 varint in DATA, each
 * value's own scale a signed integer in SECONDARY (RLE v1 or v2 as the encoding). The column reader
 * rescales a value to the column's scale.
 *
 * <p>Values are decoded into 64 bits ({@link #decode64}, for precisions up to 18) or 128 bits
 * (two's complement in a high and a low {@code long}, {@link #decode128}). A varint needs no
 * allocation however long it is; a value that does not fit is marked in {@code unfit} (orc-core
 * reads such a value as null), never an error: the format's varints are unbounded.
 *
 * <p>Decimal64 (ORC v2's encoding of precisions up to 18: the unscaled values as signed RLE v2,
 * scaled by the column's scale, no SECONDARY) needs no decoder of its own: an {@link
 * IntegerDecoder}, signed, RLE v2.
 *
 * <p>Confined to one thread.
 */
public final class DecimalDecoder {

  private final StreamInput values;
  private final IntegerDecoder scales;

  /**
   * @param values the DATA stream
   * @param scales the SECONDARY stream's signed integer decoder
   */
  public DecimalDecoder(StreamInput values, IntegerDecoder scales) {
    this.values = Objects.requireNonNull(values, "values is null");
    this.scales = Objects.requireNonNull(scales, "scales is null");
  }

  /**
   * Decodes the next {@code count} values: the unscaled values into {@code unscaled}, their scales
   * into {@code scale}, and into {@code unfit} whether a value needs more than 64 bits (its {@code
   * unscaled} entry is then its low 64 bits); all from {@code offset}.
   */
  public void decode64(long[] unscaled, int[] scale, boolean[] unfit, int offset, int count)
      throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, unscaled.length);
    Objects.checkFromIndexSize(offset, count, unfit.length);
    for (int i = offset; i < offset + count; i++) {
      byte[] a = values.array();
      int p = values.position();
      if (values.limit() - p >= Varints.MAX_BYTES) {
        // the common case, in place: a 64-bit value's varint lies in the next 10 bytes
        long v = 0;
        int shift = 0;
        int b;
        do {
          b = a[p++];
          v |= (long) (b & 0x7F) << shift;
          shift += 7;
        } while (b < 0 && shift < 70);
        if (b >= 0) {
          values.position(p);
          unscaled[i] = (v >>> 1) ^ -(v & 1);
          unfit[i] = shift == 70 && (a[p - 1] & 0x7E) != 0;
          continue;
        }
      }
      readWide(i, unscaled, null, unfit);
    }
    scales.decode(scale, offset, count);
  }

  /**
   * Decodes the next {@code count} values as 128-bit two's complement ({@code high}, {@code low}),
   * their scales into {@code scale}, and into {@code unfit} whether a value needs more than 128
   * bits; all from {@code offset}.
   */
  public void decode128(
      long[] high, long[] low, int[] scale, boolean[] unfit, int offset, int count)
      throws CorruptStreamException {
    Objects.checkFromIndexSize(offset, count, high.length);
    Objects.checkFromIndexSize(offset, count, low.length);
    Objects.checkFromIndexSize(offset, count, unfit.length);
    for (int i = offset; i < offset + count; i++) {
      readWide(i, low, high, unfit);
    }
    scales.decode(scale, offset, count);
  }

  /**
   * Reads one varint of any length a byte at a time into 128 bits, zigzag-decodes it and stores it
   * at {@code i} ({@code high} null: only the low 64 bits, unfit past them).
   */
  private void readWide(int i, long[] low, long[] high, boolean[] unfit)
      throws CorruptStreamException {
    long lo = 0;
    long hi = 0;
    boolean over = false;
    int shift = 0;
    int b;
    do {
      if (!values.hasMore()) {
        throw new CorruptStreamException(
            values.name(), "the stream ends inside a decimal's varint");
      }
      b = values.readUnsignedByte();
      long bits = b & 0x7F;
      if (shift < 64) {
        lo |= bits << shift;
        if (shift > 57) {
          hi |= bits >>> (64 - shift);
        }
      } else if (shift < 128) {
        hi |= bits << (shift - 64);
        if (shift > 121 && (bits >>> (128 - shift)) != 0) {
          over = true;
        }
      } else if (bits != 0) {
        over = true;
      }
      shift += 7;
    } while ((b & 0x80) != 0);
    long sign = -(lo & 1);
    long newLo = ((lo >>> 1) | (hi << 63)) ^ sign;
    long newHi = (hi >>> 1) ^ sign;
    low[i] = newLo;
    if (high != null) {
      high[i] = newHi;
      unfit[i] = over;
    } else {
      // fits 64 bits when the zigzag form does
      unfit[i] = over || hi != 0;
    }
  }

  /** Passes over the next {@code count} values. */
  public void skip(long count) throws CorruptStreamException {
    for (long i = 0; i < count; i++) {
      int b;
      do {
        if (!values.hasMore()) {
          throw new CorruptStreamException(
              values.name(), "the stream ends inside a decimal's varint");
        }
        b = values.readUnsignedByte();
      } while ((b & 0x80) != 0);
    }
    scales.skip(count);
  }

  /** Seeks to a row index position: DATA's positions, then SECONDARY's. */
  public void seek(IndexPositions positions) throws CorruptStreamException {
    values.seek(positions);
    scales.seek(positions);
  }
}
