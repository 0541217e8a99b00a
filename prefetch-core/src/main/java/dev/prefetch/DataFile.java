package dev.prefetch;

import java.net.URI;
import java.util.Objects;
import org.apache.hadoop.fs.Path;

/**
 * A file to read, or a byte-range split of one.
 *
 * <p>A split {@code [start, start + length)} selects the row groups (Parquet: whose midpoint lies
 * in it) or stripes (ORC: that start in it), as Hadoop input splits do, so that the splits of a
 * file together read every row exactly once. {@link #length()} is -1 for the whole file.
 *
 * @param path the file, on any Hadoop filesystem ({@code file:}, {@code hdfs:}, {@code s3a:}, ...)
 * @param start first byte of the split; 0 for the whole file
 * @param length bytes in the split, or -1 for the whole file
 */
public record DataFile(Path path, long start, long length) {

  public DataFile {
    Objects.requireNonNull(path, "path is null");
    if (start < 0) {
      throw new IllegalArgumentException("split start must not be negative: " + start);
    }
    if (length < -1) {
      throw new IllegalArgumentException("split length must be -1 (whole file) or >= 0: " + length);
    }
  }

  /** The whole file at {@code path}. */
  public static DataFile of(Path path) {
    return new DataFile(path, 0, -1);
  }

  /** The whole local file at {@code path}. */
  public static DataFile of(java.nio.file.Path path) {
    return of(new Path(path.toAbsolutePath().toUri()));
  }

  /** The split {@code [start, start + length)} of {@code path}. */
  public static DataFile split(Path path, long start, long length) {
    if (length < 0) {
      throw new IllegalArgumentException("split length must not be negative: " + length);
    }
    return new DataFile(path, start, length);
  }

  public boolean isSplit() {
    return length >= 0;
  }

  /** Whether a byte offset lies inside this split (always true for a whole file). */
  public boolean containsOffset(long offset) {
    return length < 0 || (offset >= start && offset - start < length);
  }

  public URI uri() {
    return path.toUri();
  }

  @Override
  public String toString() {
    return isSplit() ? path + " [" + start + ", +" + length + ")" : path.toString();
  }
}
