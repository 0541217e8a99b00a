package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.lang.reflect.Array;

/**
 * Columns whose physical values are fixed-width (BOOLEAN, INT32, INT64, FLOAT, DOUBLE): decoded
 * into a primitive array of the physical type. Growing, decoding and spreading take any primitive
 * array, so one implementation serves every type; each is called once per run of values.
 *
 * @param <B> the primitive array of the physical type
 */
abstract class PrimitiveBufferAdapter<B> implements ColumnAdapter<B> {

  /** The physical type's array class, as {@code int[].class}. */
  final Class<B> array;

  PrimitiveBufferAdapter(Class<B> array) {
    this.array = array;
  }

  @Override
  public final B grow(B buffer, int capacity) {
    B bigger = array.cast(Array.newInstance(array.getComponentType(), capacity));
    System.arraycopy(buffer, 0, bigger, 0, Math.min(Array.getLength(buffer), capacity));
    return bigger;
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
