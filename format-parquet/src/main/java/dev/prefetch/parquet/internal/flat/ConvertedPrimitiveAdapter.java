package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;

/**
 * Columns whose physical values (INT32, INT64) are not the vector's values: decoded into a scratch
 * array reused batch after batch, then converted into the vector's array once per batch by the
 * subclass's {@code vector}, whose loop runs over the plain arrays. The array operations take the
 * physical type's array, once per run of values.
 *
 * @param <B> the primitive array of the physical type
 */
abstract class ConvertedPrimitiveAdapter<B> implements ColumnAdapter<B> {

  /** Takes the physical type's array of at least {@code length} slots from the scratch. */
  interface ScratchTake<B> {
    B take(Scratch scratch, int length);
  }

  /** The mapped type of the vectors. */
  final DataType type;

  /** Where the converted values' arrays come from. */
  final VectorArrayPool arrays;

  private final Class<B> array;
  private final ScratchTake<B> take;
  private final Scratch scratch = new Scratch();

  ConvertedPrimitiveAdapter(
      DataType type, VectorArrayPool arrays, Class<B> array, ScratchTake<B> take) {
    this.type = type;
    this.arrays = arrays;
    this.array = array;
    this.take = take;
  }

  @Override
  public final B buffer(int rows) {
    return take.take(scratch, rows);
  }

  @Override
  public final B grow(B buffer, int capacity) {
    return InPlaceAdapter.grown(array, buffer, capacity);
  }

  @Override
  public final void decode(ValuesDecoder values, B buffer, int at, int count) {
    values.read(buffer, at, count);
  }

  @Override
  public final void spread(B buffer, int at, int count, int defined, boolean[] nulls) {
    Spread.values(buffer, at, count, defined, nulls);
  }
}
