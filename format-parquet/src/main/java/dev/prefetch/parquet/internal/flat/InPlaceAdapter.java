package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.spi.VectorArrayPool;

/**
 * Columns whose physical values are already the vector's values (BOOLEAN, INT32 as it is, INT64 as
 * it is, FLOAT, DOUBLE): decoded in place into an array that passes to the vector. One class serves
 * every primitive type; what differs is the class of the array (see {@link PrimitiveBufferAdapter})
 * and the vector built over it.
 *
 * @param <B> the primitive array type
 */
final class InPlaceAdapter<B> extends PrimitiveBufferAdapter<B> {

  /** Builds the vector over the array. */
  interface Build<B> {
    ColumnVector vector(DataType type, int rows, B values, boolean[] nulls);
  }

  private final DataType type;
  private final VectorArrayPool arrays;
  private final Build<B> build;

  private InPlaceAdapter(DataType type, VectorArrayPool arrays, Class<B> array, Build<B> build) {
    super(array);
    this.type = type;
    this.arrays = arrays;
    this.build = build;
  }

  static InPlaceAdapter<boolean[]> booleans(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, boolean[].class, BooleanVector::new);
  }

  /** INT32 as it is (plain, INT(32, signed), INT(16, unsigned), DATE). */
  static InPlaceAdapter<int[]> ints(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, int[].class, IntVector::new);
  }

  /** INT64 as it is (plain, timestamps, times, decimals up to precision 18). */
  static InPlaceAdapter<long[]> longs(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, long[].class, InPlaceAdapter::longVector);
  }

  static InPlaceAdapter<float[]> floats(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, float[].class, FloatVector::new);
  }

  static InPlaceAdapter<double[]> doubles(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, double[].class, DoubleVector::new);
  }

  /** A vector of longs: a decimal's unscaled values, or the values of any other long type. */
  static ColumnVector longVector(DataType type, int rows, long[] values, boolean[] nulls) {
    return type.kind() == DataType.Kind.DECIMAL
        ? DecimalVector.ofLongs(type, rows, values, nulls)
        : new LongVector(type, rows, values, nulls);
  }

  @Override
  public B buffer(int rows) {
    return arrays.values(array, rows);
  }

  @Override
  public ColumnVector vector(B buffer, int rows, boolean[] nulls) {
    return build.vector(type, rows, buffer, nulls);
  }

  /** The class and the physical layout, as in {@code InPlaceAdapter ints}. */
  @Override
  public String toString() {
    return "InPlaceAdapter " + array.getComponentType() + "s";
  }
}
