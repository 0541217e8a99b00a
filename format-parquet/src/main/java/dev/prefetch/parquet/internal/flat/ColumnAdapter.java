package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.parquet.internal.page.ValuesDecoder;

/**
 * The per-type part of reading a column: the buffer of one batch's physical values and the vector
 * built from it. The generic readers ({@link FlatColumnReader}, and the nested leaves) do levels,
 * nulls and pages; an adapter is called once per run of values, never once per value, so the
 * decoding loops stay inside the page decoders.
 *
 * <p>A buffer holds {@code rows} slots; {@link #decode} fills slots densely and {@link #spread}
 * moves them to the rows that are not null. A null slot keeps whatever it held (the vector's null
 * mask says it is null), except in byte buffers, where {@link #nulls} appends an empty value.
 *
 * <p>Confined to the thread of one range reader; one instance per column.
 *
 * @param <B> the buffer type: a primitive array of the physical type, or a {@code BinaryBuilder}
 */
public interface ColumnAdapter<B> {

  /** A buffer for {@code rows} values (contents unspecified). */
  B buffer(int rows);

  /** {@code buffer} with room for {@code capacity} values, its first values kept. */
  B grow(B buffer, int capacity);

  /** Decodes {@code count} values into slots {@code at..at+count-1}. */
  void decode(ValuesDecoder values, B buffer, int at, int count);

  /**
   * Moves the {@code defined} values just decoded densely at slot {@code at} to the slots of {@code
   * at..at+count-1} that {@code nulls} does not mark.
   */
  void spread(B buffer, int at, int count, int defined, boolean[] nulls);

  /** Marks {@code count} null slots at {@code at} in the buffer, where its layout needs it. */
  default void nulls(B buffer, int at, int count) {}

  /** The vector of the buffer's first {@code rows} slots; the buffer passes to the vector. */
  ColumnVector vector(B buffer, int rows, boolean[] nulls);
}
