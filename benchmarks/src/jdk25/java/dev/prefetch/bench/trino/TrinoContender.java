package dev.prefetch.bench.trino;

import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.baseline.ColumnChecksums;
import dev.prefetch.testkit.baseline.ValueSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A Trino reader of one file as a benchmark trial runs it: checked once, then timed.
 *
 * <p>The check ({@link #check}): the splits read in file order on the calling thread, every value
 * fed to the canonical checksum, which must equal the format library's; then a scan with the
 * trial's threads must give the same {@link ValueSums} as that ordered read, so the threads read
 * every split once. The timed scan ({@link #scan}) feeds the sums alone: a sum per column and a
 * hash of each string's bytes, what our reader's trials time ({@link TrinoBlocks#addSums}).
 */
public final class TrinoContender implements AutoCloseable {

  private final String format;
  private final Path file;
  private final TrinoScan scan;
  private final TrinoSplits splits;

  /**
   * @param format "parquet" or "orc"
   * @param storage "local" or "remote"
   * @param columns the columns to read, every column when empty
   * @param threads split readers at once
   */
  public TrinoContender(
      String format, Path file, String storage, List<String> columns, int threads) {
    this.format = format;
    this.file = file;
    this.scan =
        switch (format) {
          case "parquet" -> new TrinoParquetScan(file, storage, columns);
          case "orc" -> IsolatedOrc.scan(file, storage, columns);
          default ->
              throw new IllegalArgumentException(
                  "unknown format '" + format + "'; expected parquet or orc");
        };
    this.splits = new TrinoSplits(threads);
  }

  /** Checks the values read against {@code expected}, the library's checksum of the columns. */
  public void check(String expected, int columns, long expectedRows) throws IOException {
    ColumnChecksums checksum = new ColumnChecksums(columns, false);
    ValueSums ordered = new ValueSums(columns);
    ValueSink both =
        new ValueSink() {
          @Override
          public void addNull(int column) {
            checksum.addNull(column);
            ordered.addNull(column);
          }

          @Override
          public void addLong(int column, long value) {
            checksum.addLong(column, value);
            ordered.addLong(column, value);
          }

          @Override
          public void addDouble(int column, double value) {
            checksum.addDouble(column, value);
            ordered.addDouble(column, value);
          }

          @Override
          public void addBytes(int column, byte[] data, int offset, int length) {
            checksum.addBytes(column, data, offset, length);
            ordered.addBytes(column, data, offset, length);
          }
        };
    long rows = scan.feed(both);
    checksum.addRows(rows);
    ordered.addRows(rows);
    if (rows != expectedRows || !checksum.value().equals(expected)) {
      throw new IllegalStateException(
          "Trino's "
              + format
              + " reader read "
              + rows
              + " rows with checksum "
              + checksum.value()
              + " from "
              + file
              + ", the library reader "
              + expectedRows
              + " rows with "
              + expected);
    }
    String threaded = scan();
    if (!threaded.equals(ordered.value())) {
      throw new IllegalStateException(
          "Trino's "
              + format
              + " reader with its split readers read sums "
              + threaded
              + " from "
              + file
              + ", read in order "
              + ordered.value());
    }
  }

  /** The sums of every selected value, 16 hex digits. */
  public String scan() throws IOException {
    return scan.sums(splits).value();
  }

  @Override
  public void close() {
    splits.close();
  }
}
