package dev.prefetch.testkit.scan;

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
import dev.prefetch.testkit.baseline.ValueSink;

/**
 * Our batches' values in the canonical form of {@link dev.prefetch.testing.Checksum}, fed value by
 * value into a {@link ValueSink} (for locating where two reads part; the checksum itself has faster
 * typed loops).
 */
public final class BatchValues {

  private BatchValues() {}

  /** Feeds row {@code row} of {@code vector} as one row of {@code column}. */
  public static void feedRow(ColumnVector vector, int row, int column, ValueSink sink) {
    sink.startRow(column);
    feed(vector, row, column, sink);
  }

  private static void feed(ColumnVector vector, int row, int column, ValueSink sink) {
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
        feed(v.elements(), i, column, sink);
      }
    } else if (vector instanceof MapVector v) {
      sink.addLong(column, v.length(row));
      for (int i = v.start(row); i < v.start(row) + v.length(row); i++) {
        feed(v.keys(), i, column, sink);
        feed(v.values(), i, column, sink);
      }
    } else if (vector instanceof StructVector v) {
      for (ColumnVector child : v.children()) {
        feed(child, row, column, sink);
      }
    } else {
      throw new IllegalStateException("unknown vector " + vector.getClass().getName());
    }
  }
}
