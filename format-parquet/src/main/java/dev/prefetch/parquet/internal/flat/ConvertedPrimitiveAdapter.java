package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.spi.VectorArrayPool;

/**
 * Columns whose physical values (INT32, INT64) are not the vector's values: decoded into a scratch
 * array reused batch after batch, then turned into the vector by a {@link Conversion} once per
 * batch, whose loop runs over the plain arrays. The array operations take the physical type's
 * array, once per run of values.
 *
 * @param <B> the primitive array of the physical type
 */
final class ConvertedPrimitiveAdapter<B> extends PrimitiveBufferAdapter<B> {

  /** The vector of one batch's physical values; called once per batch. */
  interface Conversion<B> {
    ColumnVector vector(DataType type, VectorArrayPool arrays, B values, int rows, boolean[] nulls);
  }

  private final DataType type;
  private final VectorArrayPool arrays;
  private final Conversion<B> conversion;
  private final Scratch scratch = new Scratch();

  /**
   * @param type the mapped type of the vectors
   * @param arrays where the converted values' arrays come from
   * @param array the physical type's array class
   */
  ConvertedPrimitiveAdapter(
      DataType type, VectorArrayPool arrays, Class<B> array, Conversion<B> conversion) {
    super(array);
    this.type = type;
    this.arrays = arrays;
    this.conversion = conversion;
  }

  @Override
  public B buffer(int rows) {
    return scratch.values(array, rows);
  }

  @Override
  public ColumnVector vector(B buffer, int rows, boolean[] nulls) {
    return conversion.vector(type, arrays, buffer, rows, nulls);
  }

  /** The class and the conversion, as in {@code ConvertedPrimitiveAdapter BYTES}. */
  @Override
  public String toString() {
    return "ConvertedPrimitiveAdapter " + conversion;
  }
}
