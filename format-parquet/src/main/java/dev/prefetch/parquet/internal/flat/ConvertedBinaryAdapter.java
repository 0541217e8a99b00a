package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.page.BinaryBuilder;

/**
 * Byte-array values that become primitive values (decimals, INT96 timestamps, FLOAT16): appended
 * into scratch arrays reused batch after batch, then converted into the vector's array once per
 * batch by {@link #convert}, whose loop runs over the plain arrays.
 */
abstract class ConvertedBinaryAdapter extends BinaryBufferAdapter {

  /** The mapped type of the vectors. */
  final DataType type;

  /** Where the converted values' arrays come from. */
  final VectorArrayPool arrays;

  private final int width;
  private final Scratch scratch = new Scratch();

  /**
   * @param width the bytes of one value, or a guess where they vary
   */
  ConvertedBinaryAdapter(DataType type, int width, VectorArrayPool arrays) {
    this.type = type;
    this.width = Math.max(1, width);
    this.arrays = arrays;
  }

  @Override
  public final BinaryBuilder buffer(int rows) {
    return scratch.builder(rows, width);
  }

  @Override
  public final ColumnVector vector(BinaryBuilder buffer, int rows, boolean[] nulls) {
    scratch.keep(buffer);
    return convert(buffer.data(), buffer.offsets(), rows, nulls);
  }

  /**
   * The vector of the first {@code rows} values, value {@code i} at {@code data[offsets[i] ..
   * offsets[i + 1]]} (empty for a null).
   */
  abstract ColumnVector convert(byte[] data, int[] offsets, int rows, boolean[] nulls);
}
