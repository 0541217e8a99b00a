package dev.prefetch.batch;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Variable-length values (STRING, BINARY, FIXED_BINARY) stored back to back in one byte array.
 *
 * <p>Value {@code i} is {@code data[offsets[i] .. offsets[i + 1])}; {@code offsets} has at least
 * {@code size + 1} entries, and its first {@code size + 1} never decrease. A null value has an
 * empty span.
 */
public final class BinaryVector extends OffsetVector implements BinaryValues {

  private static final Set<DataType.Kind> KINDS =
      EnumSet.of(DataType.Kind.STRING, DataType.Kind.BINARY, DataType.Kind.FIXED_BINARY);

  private final byte[] data;

  /**
   * @param type STRING, BINARY or FIXED_BINARY
   * @param size number of values
   * @param data the bytes of all values; ownership passes to the vector
   * @param offsets {@code size + 1} start offsets into {@code data}; ownership passes too
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public BinaryVector(DataType type, int size, byte[] data, int[] offsets, boolean[] nulls) {
    super(type, KINDS, size, offsets, data.length, "data length", nulls);
    this.data = data;
  }

  /** All values' bytes. Do not modify. */
  public byte[] data() {
    checkReadable();
    return data;
  }

  @Override
  public byte[] getBytes(int index) {
    checkReadable();
    return Arrays.copyOfRange(data, offsets[index], offsets[index + 1]);
  }

  @Override
  public String getString(int index) {
    checkReadable();
    return new String(data, offsets[index], length(index), StandardCharsets.UTF_8);
  }

  /** A String for STRING values, a {@code byte[]} otherwise; null for a null. */
  @Override
  public Object getObject(int index) {
    checkReadable();
    if (isNull(index)) {
      return null;
    }
    return type().kind() == DataType.Kind.STRING ? getString(index) : getBytes(index);
  }

  @Override
  public long sizeInBytes() {
    return data.length + offsetAndNullBytes();
  }
}
