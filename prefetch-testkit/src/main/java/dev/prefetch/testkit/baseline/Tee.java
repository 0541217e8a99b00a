package dev.prefetch.testkit.baseline;

/** Feeds two sinks the same values. */
record Tee(ValueSink first, ValueSink second) implements ValueSink {

  /** {@code first} alone when {@code second} is null. */
  static ValueSink of(ValueSink first, ValueSink second) {
    return second == null ? first : new Tee(first, second);
  }

  @Override
  public void startRow(int column) {
    first.startRow(column);
    second.startRow(column);
  }

  @Override
  public void addNull(int column) {
    first.addNull(column);
    second.addNull(column);
  }

  @Override
  public void addLong(int column, long value) {
    first.addLong(column, value);
    second.addLong(column, value);
  }

  @Override
  public void addDouble(int column, double value) {
    first.addDouble(column, value);
    second.addDouble(column, value);
  }

  @Override
  public void addBytes(int column, byte[] data, int offset, int length) {
    first.addBytes(column, data, offset, length);
    second.addBytes(column, data, offset, length);
  }
}
