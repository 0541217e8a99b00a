package dev.prefetch.conformance;

import dev.prefetch.testkit.baseline.ValueSink;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The values of a read in the canonical form of {@link dev.prefetch.testing.Checksum}, kept: per
 * column, per row, the items fed (a Long, a Double, a hex String of bytes, or {@link #NULL}). Small
 * files only; the corpus is a few hundred rows per file.
 */
public final class Canonical implements ValueSink {

  /** The item of a null. */
  public static final String NULL = "null";

  private final List<List<List<Object>>> columns = new ArrayList<>();

  public Canonical(int columnCount) {
    for (int c = 0; c < columnCount; c++) {
      columns.add(new ArrayList<>());
    }
  }

  /** Per row, the items of column {@code c}. */
  public List<List<Object>> column(int c) {
    return columns.get(c);
  }

  public int columnCount() {
    return columns.size();
  }

  private List<Object> row(int column) {
    List<List<Object>> rows = columns.get(column);
    if (rows.isEmpty()) {
      throw new IllegalStateException("a value before the first row of column " + column);
    }
    return rows.get(rows.size() - 1);
  }

  @Override
  public void startRow(int column) {
    columns.get(column).add(new ArrayList<>());
  }

  @Override
  public void addNull(int column) {
    row(column).add(NULL);
  }

  @Override
  public void addLong(int column, long value) {
    row(column).add(value);
  }

  @Override
  public void addDouble(int column, double value) {
    // NaN payloads are not told apart, as in the checksum
    row(column).add(Double.isNaN(value) ? Double.NaN : value);
  }

  @Override
  public void addBytes(int column, byte[] data, int offset, int length) {
    row(column).add("0x" + HexFormat.of().formatHex(data, offset, offset + length));
  }
}
