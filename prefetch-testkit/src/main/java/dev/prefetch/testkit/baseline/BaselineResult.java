package dev.prefetch.testkit.baseline;

/**
 * What a baseline scan produced.
 *
 * @param rows rows read
 * @param batches row groups, stripes or vectorized batches read
 * @param columns top-level columns read
 * @param checksum the {@link dev.prefetch.testing.Checksum} of every value read
 * @param columnChecksums one checksum per column (for naming the first differing column)
 * @param columnNames the names of those columns
 */
public record BaselineResult(
    long rows,
    long batches,
    int columns,
    String checksum,
    java.util.List<String> columnChecksums,
    java.util.List<String> columnNames) {

  public BaselineResult {
    columnChecksums = java.util.List.copyOf(columnChecksums);
    columnNames = java.util.List.copyOf(columnNames);
  }
}
