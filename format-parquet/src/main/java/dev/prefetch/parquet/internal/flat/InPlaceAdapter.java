package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.parquet.internal.page.Spread;
import dev.prefetch.parquet.internal.page.ValuesDecoder;
import java.util.Arrays;

/**
 * Columns whose physical values are already the vector's values (BOOLEAN, INT32 as it is, INT64 as
 * it is, FLOAT, DOUBLE): decoded in place into an array that passes to the vector. One class serves
 * every primitive type; what differs is a {@link Layout} of the type's array operations, each
 * called once per run of values.
 *
 * @param <B> the primitive array type
 */
final class InPlaceAdapter<B> implements ColumnAdapter<B> {

  /** Takes an array of at least {@code length} slots from the pool. */
  interface Take<B> {
    B take(VectorArrayPool arrays, int length);
  }

  /** Returns a copy of the array with {@code capacity} slots, its first values kept. */
  interface Grow<B> {
    B grow(B buffer, int capacity);
  }

  /** Decodes {@code count} values into slots {@code at..at+count-1}. */
  interface Decode<B> {
    void decode(ValuesDecoder values, B buffer, int at, int count);
  }

  /** Moves densely decoded values to the slots that are not null (see {@link Spread}). */
  interface SpreadOut<B> {
    void spread(B buffer, int at, int count, int defined, boolean[] nulls);
  }

  /** Builds the vector over the array. */
  interface Build<B> {
    ColumnVector vector(DataType type, int rows, B values, boolean[] nulls);
  }

  /** The array operations of one primitive type. */
  record Layout<B>(
      String name, Take<B> take, Grow<B> grow, Decode<B> decode, SpreadOut<B> spread) {}

  static final Layout<boolean[]> BOOLEANS =
      new Layout<>(
          "booleans",
          VectorArrayPool::booleans,
          Arrays::copyOf,
          ValuesDecoder::readBooleans,
          Spread::booleans);
  static final Layout<int[]> INTS =
      new Layout<>(
          "ints", VectorArrayPool::ints, Arrays::copyOf, ValuesDecoder::readInts, Spread::ints);
  static final Layout<long[]> LONGS =
      new Layout<>(
          "longs", VectorArrayPool::longs, Arrays::copyOf, ValuesDecoder::readLongs, Spread::longs);
  static final Layout<float[]> FLOATS =
      new Layout<>(
          "floats",
          VectorArrayPool::floats,
          Arrays::copyOf,
          ValuesDecoder::readFloats,
          Spread::floats);
  static final Layout<double[]> DOUBLES =
      new Layout<>(
          "doubles",
          VectorArrayPool::doubles,
          Arrays::copyOf,
          ValuesDecoder::readDoubles,
          Spread::doubles);

  private final DataType type;
  private final VectorArrayPool arrays;
  private final Layout<B> layout;
  private final Build<B> build;

  private InPlaceAdapter(DataType type, VectorArrayPool arrays, Layout<B> layout, Build<B> build) {
    this.type = type;
    this.arrays = arrays;
    this.layout = layout;
    this.build = build;
  }

  static InPlaceAdapter<boolean[]> booleans(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, BOOLEANS, BooleanVector::new);
  }

  /** INT32 as it is (plain, INT(32, signed), INT(16, unsigned), DATE). */
  static InPlaceAdapter<int[]> ints(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, INTS, IntVector::new);
  }

  /** INT64 as it is (plain, timestamps, times, decimals up to precision 18). */
  static InPlaceAdapter<long[]> longs(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, LONGS, InPlaceAdapter::longVector);
  }

  static InPlaceAdapter<float[]> floats(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, FLOATS, FloatVector::new);
  }

  static InPlaceAdapter<double[]> doubles(DataType type, VectorArrayPool arrays) {
    return new InPlaceAdapter<>(type, arrays, DOUBLES, DoubleVector::new);
  }

  /** A vector of longs: a decimal's unscaled values, or the values of any other long type. */
  static ColumnVector longVector(DataType type, int rows, long[] values, boolean[] nulls) {
    return type.kind() == DataType.Kind.DECIMAL
        ? DecimalVector.ofLongs(type, rows, values, nulls)
        : new LongVector(type, rows, values, nulls);
  }

  @Override
  public B buffer(int rows) {
    return layout.take().take(arrays, rows);
  }

  @Override
  public B grow(B buffer, int capacity) {
    return layout.grow().grow(buffer, capacity);
  }

  @Override
  public void decode(ValuesDecoder values, B buffer, int at, int count) {
    layout.decode().decode(values, buffer, at, count);
  }

  @Override
  public void spread(B buffer, int at, int count, int defined, boolean[] nulls) {
    layout.spread().spread(buffer, at, count, defined, nulls);
  }

  @Override
  public ColumnVector vector(B buffer, int rows, boolean[] nulls) {
    return build.vector(type, rows, buffer, nulls);
  }

  /** The class and the physical layout, as in {@code InPlaceAdapter ints}. */
  @Override
  public String toString() {
    return "InPlaceAdapter " + layout.name();
  }
}
