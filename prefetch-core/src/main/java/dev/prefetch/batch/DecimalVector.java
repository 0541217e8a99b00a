package dev.prefetch.batch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.Set;

/**
 * DECIMAL values as unscaled integers.
 *
 * <p>Two layouts, chosen by precision so that the common case stays a primitive array: up to {@link
 * DataType#MAX_LONG_DECIMAL_PRECISION} digits the unscaled values are a {@code long[]} ({@link
 * #isLongBacked()}); above that each unscaled value is a big-endian two's complement byte string in
 * one {@code byte[]} with {@code size + 1} offsets, as Parquet and Java's {@link
 * BigInteger#toByteArray()} write them.
 */
public final class DecimalVector extends ColumnVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.DECIMAL);

  private final long[] unscaled;
  private final byte[] data;
  private final int[] offsets;

  private DecimalVector(
      DataType type, int size, long[] unscaled, byte[] data, int[] offsets, boolean[] nulls) {
    super(type, KINDS, size, nulls);
    this.unscaled = unscaled;
    this.data = data;
    this.offsets = offsets;
  }

  /** A decimal vector of precision at most 18 over unscaled longs (ownership passes). */
  public static DecimalVector ofLongs(DataType type, int size, long[] unscaled, boolean[] nulls) {
    if (type.precision() > DataType.MAX_LONG_DECIMAL_PRECISION) {
      throw new IllegalArgumentException(
          "precision " + type.precision() + " does not fit longs; use ofBytes");
    }
    checkLength("unscaled", unscaled.length, size);
    return new DecimalVector(type, size, unscaled, null, null, nulls);
  }

  /** A decimal vector over big-endian two's complement unscaled values (ownership passes). */
  public static DecimalVector ofBytes(
      DataType type, int size, byte[] data, int[] offsets, boolean[] nulls) {
    if (type.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
      throw new IllegalArgumentException(
          "precision " + type.precision() + " fits longs; use ofLongs");
    }
    checkOffsets(offsets, size, data.length, "data length");
    return new DecimalVector(type, size, null, data, offsets, nulls);
  }

  /** Whether the unscaled values are a {@code long[]} ({@link #unscaledLongs()}). */
  public boolean isLongBacked() {
    return unscaled != null;
  }

  /** The unscaled longs of a long-backed vector. Do not modify. */
  public long[] unscaledLongs() {
    checkReadable();
    if (unscaled == null) {
      throw new IllegalStateException("decimal(" + type().precision() + ") is not long-backed");
    }
    return unscaled;
  }

  /** The unscaled value at {@code index} of a long-backed vector. */
  public long getUnscaledLong(int index) {
    checkReadable();
    return unscaledLongs()[index];
  }

  /** The bytes of a byte-backed vector. Do not modify. */
  public byte[] data() {
    checkReadable();
    return data;
  }

  /** The offsets of a byte-backed vector. Do not modify. */
  public int[] offsets() {
    checkReadable();
    return offsets;
  }

  public BigInteger getUnscaled(int index) {
    checkReadable();
    if (unscaled != null) {
      return BigInteger.valueOf(unscaled[index]);
    }
    int start = offsets[index];
    int length = offsets[index + 1] - start;
    return length == 0 ? BigInteger.ZERO : new BigInteger(data, start, length);
  }

  public BigDecimal getDecimal(int index) {
    checkReadable();
    if (unscaled != null) {
      return BigDecimal.valueOf(unscaled[index], type().scale());
    }
    return new BigDecimal(getUnscaled(index), type().scale());
  }

  /** A {@link BigDecimal}, or null. */
  @Override
  public Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : getDecimal(index);
  }

  @Override
  public long sizeInBytes() {
    long bytes = unscaled != null ? 8L * unscaled.length : data.length + 4L * offsets.length;
    return bytes + nullMaskBytes();
  }
}
