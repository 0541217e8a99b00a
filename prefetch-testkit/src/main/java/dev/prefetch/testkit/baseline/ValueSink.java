package dev.prefetch.testkit.baseline;

import dev.prefetch.testing.CanonicalValues;

/**
 * Where a reader feeds the values of top-level columns in the canonical form of {@link
 * CanonicalValues} (integers as longs, floating point as doubles, bytes; a list's or map's length
 * before its elements, a struct's fields in order).
 */
public interface ValueSink extends CanonicalValues.Sink {

  /** The next value fed to {@code column} begins a new row. */
  default void startRow(int column) {}
}
