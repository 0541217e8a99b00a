package dev.prefetch.testkit.baseline;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Finds where two reads of a column part: fed one read, it keeps a 64-bit hash of every row of the
 * probed columns; and it renders the values of one chosen row per column as text. A probe costs 8
 * bytes per row of each probed column.
 *
 * <p>Not thread-safe: one reader feeds it.
 */
public final class RowProbe implements ValueSink {

  /** Characters of a rendered row kept; the rest is cut with "...". */
  private static final int MAX_RENDERED_CHARS = 300;

  private final boolean[] probed;
  private final long[] renderRow;
  private final long[][] hashes;
  private final int[] rowCount;
  private final long[] current;
  private final boolean[] rendering;
  private final StringBuilder[] rendered;

  /**
   * @param columns the top-level columns of the read
   * @param probed which columns to probe
   * @param renderRow per column, the row whose values to render, or -1 for none
   */
  public RowProbe(int columns, boolean[] probed, long[] renderRow) {
    this.probed = probed.clone();
    this.renderRow = renderRow.clone();
    this.hashes = new long[columns][];
    this.rowCount = new int[columns];
    this.current = new long[columns];
    this.rendering = new boolean[columns];
    this.rendered = new StringBuilder[columns];
    for (int c = 0; c < columns; c++) {
      if (probed[c]) {
        hashes[c] = new long[1024];
      }
    }
  }

  @Override
  public void startRow(int column) {
    if (!probed[column]) {
      return;
    }
    if (rowCount[column] > 0) {
      close(column);
    }
    current[column] = 0x9E3779B97F4A7C15L;
    rendering[column] = rowCount[column] == renderRow[column];
    if (rendering[column]) {
      rendered[column] = new StringBuilder();
    }
    rowCount[column]++;
  }

  private void close(int column) {
    int row = rowCount[column] - 1;
    if (row < 0) {
      return;
    }
    long[] h = hashes[column];
    if (row >= h.length) {
      h = hashes[column] = Arrays.copyOf(h, Math.max(row + 1, h.length * 2));
    }
    h[row] = current[column];
  }

  private void item(int column, long item) {
    current[column] =
        Long.rotateLeft(current[column] ^ (item * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L
            + 1;
  }

  private void render(int column, String text) {
    StringBuilder b = rendered[column];
    if (b.length() < MAX_RENDERED_CHARS) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(text);
      if (b.length() >= MAX_RENDERED_CHARS) {
        b.setLength(MAX_RENDERED_CHARS);
        b.append("...");
      }
    }
  }

  @Override
  public void addNull(int column) {
    if (probed[column]) {
      item(column, 0x5BD1E9955BD1E995L);
      if (rendering[column]) {
        render(column, "null");
      }
    }
  }

  @Override
  public void addLong(int column, long value) {
    if (probed[column]) {
      item(column, value);
      if (rendering[column]) {
        render(column, Long.toString(value));
      }
    }
  }

  @Override
  public void addDouble(int column, double value) {
    if (probed[column]) {
      long bits = Double.isNaN(value) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(value);
      item(column, bits ^ 0x3C6EF372FE94F82BL);
      if (rendering[column]) {
        render(column, Double.toString(value));
      }
    }
  }

  @Override
  public void addBytes(int column, byte[] data, int offset, int length) {
    if (probed[column]) {
      long h = length;
      for (int i = 0; i < length; i++) {
        h = h * 31 + data[offset + i];
      }
      item(column, h ^ 0x1B873593L);
      if (rendering[column]) {
        render(column, bytesText(data, offset, length));
      }
    }
  }

  /** Valid UTF-8 as a quoted string, other bytes as hex. */
  static String bytesText(byte[] data, int offset, int length) {
    try {
      String s =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(data, offset, length))
              .toString();
      return "\"" + s + "\"";
    } catch (CharacterCodingException e) {
      StringBuilder b = new StringBuilder("0x");
      for (int i = 0; i < length; i++) {
        b.append(String.format("%02x", data[offset + i] & 0xFF));
      }
      return b.toString();
    }
  }

  /** Ends the read: the last row of each column is recorded. */
  public void finish() {
    for (int c = 0; c < hashes.length; c++) {
      if (probed[c] && rowCount[c] > 0) {
        close(c);
        rendering[c] = false;
      }
    }
  }

  /** Rows seen of {@code column}. */
  public int rows(int column) {
    return rowCount[column];
  }

  /** The hash of {@code row} of {@code column}. */
  public long hash(int column, int row) {
    return hashes[column][row];
  }

  /** The rendered values of the chosen row of {@code column}, or null when not seen. */
  public String rendered(int column) {
    return rendered[column] == null ? null : "[" + rendered[column] + "]";
  }

  /**
   * The first row of {@code column} where this read and {@code other} differ (one being shorter
   * counts at its end), or -1 when they agree.
   */
  public long firstDifference(RowProbe other, int column) {
    int n = Math.min(rows(column), other.rows(column));
    for (int r = 0; r < n; r++) {
      if (hash(column, r) != other.hash(column, r)) {
        return r;
      }
    }
    return rows(column) == other.rows(column) ? -1 : n;
  }
}
