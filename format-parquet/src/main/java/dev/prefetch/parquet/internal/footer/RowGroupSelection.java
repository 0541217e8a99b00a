package dev.prefetch.parquet.internal.footer;

import dev.prefetch.RowRange;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Which row groups a read asks for, before any footer is decoded: the {@value #ROW_GROUPS_PROPERTY}
 * property (row group positions in the footer), the read's row ranges, and/or the input split of
 * the file. Immutable.
 *
 * @param rowGroups the positions asked for, ascending and distinct, or null for all
 * @param rowRanges the row ranges asked for, or null for all rows
 * @param split the byte range of an input split (row groups by midpoint), or null for all
 */
public record RowGroupSelection(int[] rowGroups, List<RowRange> rowRanges, Split split) {

  /**
   * The bytes {@code [start, end)} of an input split: it reads the row groups whose midpoint lies
   * inside, the rule of parquet-hadoop's split planning (see {@link MidpointSplit}).
   */
  public record Split(long start, long end) {

    /** Whether {@code offset} lies in {@code [start, end)}. */
    public boolean contains(long offset) {
      return offset >= start && offset < end;
    }
  }

  /**
   * Reader property: a comma-separated list of row group positions ({@code "3,17"}); only those row
   * groups are read, in file order, and only their metadata is decoded.
   */
  public static final String ROW_GROUPS_PROPERTY = "parquet.read.row-groups";

  public RowGroupSelection {
    rowGroups = rowGroups == null ? null : rowGroups.clone();
    rowRanges = rowRanges == null ? null : List.copyOf(rowRanges);
  }

  /** A selection without a split. */
  public RowGroupSelection(int[] rowGroups, List<RowRange> rowRanges) {
    this(rowGroups, rowRanges, null);
  }

  /** The positions asked for (a copy), or null for all. */
  @Override
  public int[] rowGroups() {
    return rowGroups == null ? null : rowGroups.clone();
  }

  /** The selection of a read's properties and row ranges. */
  public static RowGroupSelection of(Map<String, String> properties, List<RowRange> rowRanges) {
    String value = properties.get(ROW_GROUPS_PROPERTY);
    return new RowGroupSelection(value == null ? null : parse(value), rowRanges);
  }

  /** This selection, narrowed to the row groups of the input split {@code split}. */
  public RowGroupSelection withSplit(Split split) {
    return new RowGroupSelection(rowGroups, rowRanges, split);
  }

  /** Whether the read asks for only some row groups (so the footer index pays off). */
  public boolean selective() {
    return rowGroups != null || rowRanges != null || split != null;
  }

  /**
   * Parses {@code "3, 17,4"} into {@code [3, 4, 17]}.
   *
   * @throws IllegalArgumentException naming the property and value when it is empty, holds a
   *     non-number, a negative number or a duplicate
   */
  public static int[] parse(String value) {
    String[] parts = value.split(",", -1);
    int[] rowGroups = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i].trim();
      try {
        rowGroups[i] = Integer.parseInt(part);
      } catch (NumberFormatException e) {
        throw bad(value, "'" + part + "' is not a row group number");
      }
      if (rowGroups[i] < 0) {
        throw bad(value, "row group numbers start at 0");
      }
    }
    Arrays.sort(rowGroups);
    for (int i = 1; i < rowGroups.length; i++) {
      if (rowGroups[i] == rowGroups[i - 1]) {
        throw bad(value, "row group " + rowGroups[i] + " is listed twice");
      }
    }
    return rowGroups;
  }

  /**
   * The row groups of a footer with {@code index} that the listed row groups and row ranges of this
   * selection read, ascending (the split is applied by {@link MidpointSplit}).
   *
   * @throws IllegalArgumentException if a listed row group does not exist
   */
  public int[] resolve(FooterIndex index, String file) {
    int count = index.rowGroupCount();
    boolean[] chosen = new boolean[count];
    if (rowGroups == null) {
      Arrays.fill(chosen, true);
    } else {
      for (int rowGroup : rowGroups) {
        if (rowGroup >= count) {
          throw new IllegalArgumentException(
              ROW_GROUPS_PROPERTY
                  + " asks for row group "
                  + rowGroup
                  + ", but "
                  + file
                  + " has "
                  + count
                  + " row groups");
        }
        chosen[rowGroup] = true;
      }
    }
    if (rowRanges != null) {
      boolean[] inRanges = new boolean[count];
      for (RowRange range : rowRanges) {
        for (int rowGroup : index.rowGroupsOverlapping(range.start(), range.count())) {
          inRanges[rowGroup] = true;
        }
      }
      for (int i = 0; i < count; i++) {
        chosen[i] &= inRanges[i];
      }
    }
    int n = 0;
    int[] result = new int[count];
    for (int i = 0; i < count; i++) {
      if (chosen[i]) {
        result[n++] = i;
      }
    }
    return Arrays.copyOf(result, n);
  }

  private static IllegalArgumentException bad(String value, String why) {
    return new IllegalArgumentException(
        "Invalid value '"
            + value
            + "' for "
            + ROW_GROUPS_PROPERTY
            + ": "
            + why
            + " (expected comma-separated row group numbers such as 3,17)");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowGroupSelection other
        && Arrays.equals(rowGroups, other.rowGroups)
        && java.util.Objects.equals(rowRanges, other.rowRanges)
        && java.util.Objects.equals(split, other.split);
  }

  @Override
  public int hashCode() {
    return (Arrays.hashCode(rowGroups) * 31 + java.util.Objects.hashCode(rowRanges)) * 31
        + java.util.Objects.hashCode(split);
  }

  @Override
  public String toString() {
    return "RowGroupSelection[rowGroups="
        + Arrays.toString(rowGroups)
        + ", rowRanges="
        + rowRanges
        + ", split="
        + split
        + "]";
  }
}
