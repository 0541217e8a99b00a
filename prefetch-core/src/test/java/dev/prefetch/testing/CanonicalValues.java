package dev.prefetch.testing;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.ByteVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.MapVector;
import dev.prefetch.batch.ShortVector;
import dev.prefetch.batch.StructVector;

/**
 * One value of a vector in the canonical form of {@link Checksum}: integers and booleans as longs,
 * floating point as doubles, strings, binaries and wide decimals as bytes (a decimal's unscaled
 * two's complement), a list's or map's length before its elements (a map's key before its value), a
 * struct's fields in order, a null as a null at any depth. The checksum and the benchmarks' sums
 * walk values through this one place, so both see the same values.
 */
public final class CanonicalValues {

  /** Where the canonical values of a column go. */
  public interface Sink {

    void addNull(int column);

    void addLong(int column, long value);

    void addDouble(int column, double value);

    void addBytes(int column, byte[] data, int offset, int length);
  }

  private CanonicalValues() {}

  /** Feeds the value at {@code row} of {@code vector} to {@code sink} as column {@code column}. */
  public static void add(Sink sink, int column, ColumnVector vector, int row) {
    if (vector.isNull(row)) {
      sink.addNull(column);
    } else if (vector instanceof LongVector v) {
      sink.addLong(column, v.get(row));
    } else if (vector instanceof IntVector v) {
      sink.addLong(column, v.get(row));
    } else if (vector instanceof ShortVector v) {
      sink.addLong(column, v.get(row));
    } else if (vector instanceof ByteVector v) {
      sink.addLong(column, v.get(row));
    } else if (vector instanceof BooleanVector v) {
      sink.addLong(column, v.get(row) ? 1 : 0);
    } else if (vector instanceof DoubleVector v) {
      sink.addDouble(column, v.get(row));
    } else if (vector instanceof FloatVector v) {
      sink.addDouble(column, v.get(row));
    } else if (vector instanceof BinaryVector v) {
      sink.addBytes(column, v.data(), v.start(row), v.length(row));
    } else if (vector instanceof DictionaryVector v) {
      BinaryVector entries = v.dictionary();
      sink.addBytes(column, entries.data(), entries.start(v.id(row)), entries.length(v.id(row)));
    } else if (vector instanceof DecimalVector v) {
      if (v.isLongBacked()) {
        sink.addLong(column, v.getUnscaledLong(row));
      } else {
        byte[] bytes = v.getUnscaled(row).toByteArray();
        sink.addBytes(column, bytes, 0, bytes.length);
      }
    } else if (vector instanceof ListVector v) {
      sink.addLong(column, v.length(row));
      for (int i = v.start(row); i < v.start(row) + v.length(row); i++) {
        add(sink, column, v.elements(), i);
      }
    } else if (vector instanceof MapVector v) {
      sink.addLong(column, v.length(row));
      for (int i = v.start(row); i < v.start(row) + v.length(row); i++) {
        add(sink, column, v.keys(), i);
        add(sink, column, v.values(), i);
      }
    } else if (vector instanceof StructVector v) {
      for (ColumnVector child : v.children()) {
        add(sink, column, child, row);
      }
    } else {
      throw new IllegalStateException("unknown vector " + vector.getClass().getName());
    }
  }
}
