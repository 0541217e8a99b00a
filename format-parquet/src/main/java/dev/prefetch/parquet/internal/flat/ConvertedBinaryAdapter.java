package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.page.BinaryBuilder;
import dev.prefetch.spi.VectorArrayPool;

/**
 * Byte-array values that become primitive values (decimals, INT96 timestamps, FLOAT16): appended
 * into scratch arrays reused batch after batch, then converted into the vector's array once per
 * batch by a {@link Conversion}, whose loop runs over the plain arrays.
 */
final class ConvertedBinaryAdapter extends BinaryBufferAdapter {

  /**
   * The vector of the first {@code rows} values, value {@code i} at {@code data[offsets[i] ..
   * offsets[i + 1]]} (empty for a null); called once per batch.
   */
  interface Conversion {
    ColumnVector vector(
        DataType type,
        VectorArrayPool arrays,
        byte[] data,
        int[] offsets,
        int rows,
        boolean[] nulls);
  }

  private final DataType type;
  private final VectorArrayPool arrays;
  private final int width;
  private final Conversion conversion;
  private final Scratch scratch = new Scratch();

  /**
   * @param type the mapped type of the vectors
   * @param width the bytes of one value, or a guess where they vary
   * @param arrays where the converted values' arrays come from
   */
  ConvertedBinaryAdapter(DataType type, int width, VectorArrayPool arrays, Conversion conversion) {
    this.type = type;
    this.width = Math.max(1, width);
    this.arrays = arrays;
    this.conversion = conversion;
  }

  @Override
  public final BinaryBuilder buffer(int rows) {
    return scratch.builder(rows, width);
  }

  @Override
  public final ColumnVector vector(BinaryBuilder buffer, int rows, boolean[] nulls) {
    scratch.keep(buffer);
    return conversion.vector(type, arrays, buffer.data(), buffer.offsets(), rows, nulls);
  }

  /** The class and what it converts, as in {@code ConvertedBinaryAdapter FLOAT16}. */
  @Override
  public String toString() {
    return "ConvertedBinaryAdapter " + conversion;
  }
}
