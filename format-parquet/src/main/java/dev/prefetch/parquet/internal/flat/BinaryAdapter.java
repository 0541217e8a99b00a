package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.parquet.internal.page.BinaryBuilder;
import dev.prefetch.spi.VectorArrayPool;

/**
 * BINARY and FIXED_LEN_BYTE_ARRAY as they are (strings, bytes, UUIDs, intervals, and decimals above
 * precision 18 as big-endian two's complement): the builder's arrays become the vector's.
 */
final class BinaryAdapter extends BinaryBufferAdapter {

  /** Largest array a JVM reliably allocates. */
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  private static final int INITIAL_BYTES_PER_VALUE = 16;

  private final DataType type;
  private final VectorArrayPool arrays;

  /** Bytes per value of the last batch (x16): sizes the next batch's array to fit at once. */
  private long bytesPerValue16 = INITIAL_BYTES_PER_VALUE * 16L;

  BinaryAdapter(DataType type, VectorArrayPool arrays) {
    this.type = type;
    this.arrays = arrays;
  }

  @Override
  public BinaryBuilder buffer(int rows) {
    // Batches of one column have similar value lengths: sizing from the last one (plus a
    // sixteenth) avoids both regrowing the array mid-batch and zeroing far more than is filled; a
    // new array gets an eighth more again from the pool, so that it serves later batches too.
    long expected = rows * bytesPerValue16 / 16;
    int capacity = (int) Math.min(MAX_ARRAY_LENGTH, expected + expected / 16 + 64);
    return new BinaryBuilder(arrays.binaryData(capacity), arrays.binaryOffsets(rows + 1));
  }

  @Override
  public ColumnVector vector(BinaryBuilder buffer, int rows, boolean[] nulls) {
    if (rows > 0) {
      bytesPerValue16 = Math.max(1, (long) buffer.offsets()[rows] * 16 / rows);
    }
    return vector(type, rows, buffer.data(), buffer.offsets(), nulls);
  }

  /** A vector of byte arrays: a decimal's big-endian unscaled values, or any other binary type. */
  static ColumnVector vector(DataType type, int rows, byte[] data, int[] offsets, boolean[] nulls) {
    return type.kind() == DataType.Kind.DECIMAL
        ? DecimalVector.ofBytes(type, rows, data, offsets, nulls)
        : new BinaryVector(type, rows, data, offsets, nulls);
  }
}
