package dev.prefetch.testkit.baseline;

import dev.prefetch.testing.Checksum;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole-read {@link Checksum} together with one single-column checksum per column, fed the same
 * values, so that a mismatch can name the first column that differs.
 *
 * <p>The per-column checksums cost a second hash per value; readers that only need the combined
 * value pass {@code perColumn = false}.
 */
public final class ColumnChecksums implements ValueSink {

  private final Checksum all;
  private final Checksum[] single;

  public ColumnChecksums(int columns, boolean perColumn) {
    this.all = new Checksum(columns);
    this.single = perColumn ? new Checksum[columns] : null;
    if (perColumn) {
      for (int c = 0; c < columns; c++) {
        single[c] = new Checksum(1);
      }
    }
  }

  @Override
  public void addNull(int column) {
    all.addNull(column);
    if (single != null) {
      single[column].addNull(0);
    }
  }

  @Override
  public void addLong(int column, long value) {
    all.addLong(column, value);
    if (single != null) {
      single[column].addLong(0, value);
    }
  }

  @Override
  public void addDouble(int column, double value) {
    all.addDouble(column, value);
    if (single != null) {
      single[column].addDouble(0, value);
    }
  }

  @Override
  public void addBytes(int column, byte[] data, int offset, int length) {
    all.addBytes(column, data, offset, length);
    if (single != null) {
      single[column].addBytes(0, data, offset, length);
    }
  }

  public void addRows(long rows) {
    all.addRows(rows);
  }

  public long rows() {
    return all.rows();
  }

  public String value() {
    return all.value();
  }

  /** The single-column checksums, or an empty list when they were not kept. */
  public List<String> columnValues() {
    List<String> out = new ArrayList<>();
    if (single != null) {
      for (Checksum c : single) {
        out.add(c.value());
      }
    }
    return out;
  }
}
