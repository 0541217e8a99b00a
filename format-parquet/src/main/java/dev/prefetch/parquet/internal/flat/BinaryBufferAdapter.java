package dev.prefetch.parquet.internal.flat;

import dev.prefetch.parquet.internal.page.BinaryBuilder;
import dev.prefetch.parquet.internal.page.ValuesDecoder;

/**
 * Columns whose physical values are byte arrays (BINARY, FIXED_LEN_BYTE_ARRAY, INT96): appended
 * back to back into a {@link BinaryBuilder}, an empty value for each null.
 */
abstract class BinaryBufferAdapter implements ColumnAdapter<BinaryBuilder> {

  @Override
  public final BinaryBuilder grow(BinaryBuilder buffer, int capacity) {
    return buffer; // a builder grows as it is appended to
  }

  @Override
  public final void decode(ValuesDecoder values, BinaryBuilder buffer, int at, int count) {
    values.readBinary(buffer, count);
  }

  @Override
  public final void spread(BinaryBuilder buffer, int at, int count, int defined, boolean[] nulls) {
    buffer.spread(count, defined, nulls, at);
  }

  @Override
  public final void nulls(BinaryBuilder buffer, int at, int count) {
    buffer.appendEmpty(count);
  }
}
