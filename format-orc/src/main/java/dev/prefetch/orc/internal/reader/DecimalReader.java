package dev.prefetch.orc.internal.reader;

import dev.prefetch.CorruptFileException;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.DecimalDecoder;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A {@code decimal} column in the varint encoding: each value's unscaled varint in DATA, its own
 * scale in SECONDARY; rescaled to the column's scale into a {@link DecimalVector}, long-backed up
 * to 18 digits, byte-backed above.
 *
 * <p>As orc-core reads them: up to 18 digits, a value is multiplied up to the column's scale (a
 * value of a larger scale, or one that does not fit 64 bits, the file cannot hold: corrupt); above
 * 18 digits, a value of more than 38 digits reads as null (orc-core's decimals hold 38), and one of
 * a larger scale is exact only when its extra digits are zeros (else corrupt).
 */
final class DecimalReader extends ColumnReader {

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private static final BigInteger MAX_38_DIGITS = BigInteger.TEN.pow(38);

  private final DataType type;
  private final int scale;
  private final boolean wide;
  private final DecimalDecoder data;
  private int[] scales = new int[0];
  private boolean[] unfit = new boolean[0];
  private long[] high = new long[0];
  private long[] low = new long[0];

  DecimalReader(
      int column,
      String where,
      DataType type,
      StreamInput present,
      StreamInput data,
      StreamInput secondary,
      boolean rleV2,
      VectorArrayPool pool) {
    super(column, where, present, pool);
    this.type = type;
    this.scale = type.scale();
    this.wide = type.precision() > DataType.MAX_LONG_DECIMAL_PRECISION;
    this.data =
        new DecimalDecoder(owned(data), IntegerDecoder.create(owned(secondary), true, rleV2));
  }

  @Override
  public ColumnVector read(int rows, boolean[] parentNulls) throws IOException {
    boolean[] nulls = readNulls(rows, parentNulls);
    int count = nonNull();
    if (scales.length < count) {
      int length = Math.max(count, scales.length * 2);
      scales = new int[length];
      unfit = new boolean[length];
    }
    return wide ? readWide(rows, nulls, count) : readLongs(rows, nulls, count);
  }

  private DecimalVector readLongs(int rows, boolean[] nulls, int count) throws IOException {
    long[] values = pool.values(long[].class, rows);
    data.decode64(values, scales, unfit, 0, count);
    for (int j = 0; j < count; j++) {
      int shift = scale - scales[j];
      if (unfit[j] || shift < 0 || shift >= POWERS_OF_TEN.length) {
        throw corrupt(j, unfit[j] ? "does not fit 64 bits" : "has scale " + scales[j]);
      }
      if (shift > 0) {
        values[j] *= POWERS_OF_TEN[shift];
      }
    }
    if (nulls != null) {
      Spread.longs(values, nulls, rows, count);
    }
    return DecimalVector.ofLongs(type, rows, values, nulls);
  }

  private DecimalVector readWide(int rows, boolean[] nulls, int count) throws IOException {
    if (high.length < count) {
      high = new long[Math.max(count, high.length * 2)];
      low = new long[high.length];
    }
    data.decode128(high, low, scales, unfit, 0, count);
    byte[][] values = new byte[count][];
    long total = 0;
    for (int j = 0; j < count; j++) {
      if (!unfit[j]) {
        BigInteger raw = toBigInteger(high[j], low[j]);
        if (raw.abs().compareTo(MAX_38_DIGITS) < 0) {
          values[j] = rescaled(j, raw, scales[j]).toByteArray();
          total += values[j].length;
        }
      }
    }
    boolean[] mask = nulls;
    byte[] bytes = new byte[Math.toIntExact(total)];
    int[] offsets = new int[rows + 1];
    int at = 0;
    int j = 0;
    for (int i = 0; i < rows; i++) {
      if (mask == null || !mask[i]) {
        byte[] value = values[j++];
        if (value == null) {
          // too large for orc-core's decimals, which read it as null
          if (mask == null) {
            mask = pool.mask(rows);
          }
          mask[i] = true;
        } else {
          System.arraycopy(value, 0, bytes, at, value.length);
          at += value.length;
        }
      }
      offsets[i + 1] = at;
    }
    return DecimalVector.ofBytes(type, rows, bytes, offsets, mask);
  }

  /** The value at the column's scale, exactly. */
  private BigInteger rescaled(int j, BigInteger unscaled, int valueScale) throws IOException {
    if (valueScale == scale) {
      return unscaled;
    }
    try {
      return new BigDecimal(unscaled, valueScale).setScale(scale).unscaledValue();
    } catch (ArithmeticException e) {
      throw corrupt(j, "has scale " + valueScale + " with digits past the column's");
    }
  }

  private static BigInteger toBigInteger(long high, long low) {
    byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (high >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
    }
    return new BigInteger(bytes);
  }

  private CorruptFileException corrupt(int value, String problem) {
    return new CorruptFileException(
        "Corrupt "
            + where
            + ": a decimal value (the "
            + (value + 1)
            + "th of its batch) "
            + problem
            + ", which a decimal("
            + type.precision()
            + ","
            + scale
            + ") column cannot hold");
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
