package dev.prefetch.testkit.baseline;

/**
 * Where a reader feeds the values of top-level columns in the canonical form of {@link
 * dev.prefetch.testing.Checksum} (integers as longs, floating point as doubles, bytes; a list's or
 * map's length before its elements, a struct's fields in order).
 */
public interface ValueSink {

  /** The next value fed to {@code column} begins a new row. */
  default void startRow(int column) {}

  void addNull(int column);

  void addLong(int column, long value);

  void addDouble(int column, double value);

  void addBytes(int column, byte[] data, int offset, int length);
}
