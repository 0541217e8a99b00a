package dev.prefetch.cli.inspect;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * An aligned text table written as rows arrive: the column widths are those of the header and the
 * first {@code blockRows} rows (each cell cut, by default to {@link #MAX_CELL_CHARS}), so a long
 * {@code cat} streams instead of holding the file. Numbers are right-aligned, text left-aligned.
 */
public final class TextTable {

  /** Cells longer than this are cut, ending in an ellipsis. */
  public static final int MAX_CELL_CHARS = 40;

  private final PrintWriter out;
  private final List<String> header;
  private final boolean[] rightAligned;
  private final int blockRows;
  private final int maxCellChars;
  private final List<String[]> pending = new ArrayList<>();
  private int[] widths;

  /**
   * @param rightAligned per column, whether its values are numbers
   * @param blockRows rows that set the widths before the first line is printed
   */
  public TextTable(PrintWriter out, List<String> header, boolean[] rightAligned, int blockRows) {
    this(out, header, rightAligned, blockRows, MAX_CELL_CHARS);
  }

  /** A table whose cells are cut at {@code maxCellChars}. */
  public TextTable(
      PrintWriter out,
      List<String> header,
      boolean[] rightAligned,
      int blockRows,
      int maxCellChars) {
    if (maxCellChars < 2) {
      throw new IllegalArgumentException("maxCellChars must be at least 2: " + maxCellChars);
    }
    this.maxCellChars = maxCellChars;
    this.out = out;
    this.header = List.copyOf(header);
    this.rightAligned = rightAligned.clone();
    this.blockRows = Math.max(1, blockRows);
  }

  /** Adds one row of cells (one per column). */
  public void row(String[] cells) {
    String[] cut = new String[cells.length];
    for (int c = 0; c < cells.length; c++) {
      cut[c] = cut(cells[c]);
    }
    if (widths != null) {
      print(cut);
      return;
    }
    pending.add(cut);
    if (pending.size() >= blockRows) {
      flush();
    }
  }

  /** Prints what is held (the header at least). */
  public void flush() {
    if (widths == null) {
      widths = new int[header.size()];
      for (int c = 0; c < widths.length; c++) {
        widths[c] = header.get(c).length();
      }
      for (String[] row : pending) {
        for (int c = 0; c < widths.length; c++) {
          widths[c] = Math.max(widths[c], row[c].length());
        }
      }
      print(header.toArray(new String[0]));
      for (String[] row : pending) {
        print(row);
      }
      pending.clear();
    }
    out.flush();
  }

  private void print(String[] cells) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        line.append("  ");
      }
      String cell = cells[c];
      int pad = Math.max(0, widths[c] - cell.length());
      boolean last = c == cells.length - 1;
      if (rightAligned[c]) {
        line.append(" ".repeat(pad)).append(cell);
      } else {
        line.append(cell).append(last ? "" : " ".repeat(pad));
      }
    }
    out.println(line);
  }

  private String cut(String cell) {
    String oneLine = cell.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    return oneLine.length() <= maxCellChars
        ? oneLine
        : oneLine.substring(0, maxCellChars - 1) + "\u2026";
  }
}
