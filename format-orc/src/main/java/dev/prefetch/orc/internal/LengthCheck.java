package dev.prefetch.orc.internal;

import dev.prefetch.CorruptFileException;
import java.io.IOException;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.orc.impl.IntegerReader;
import org.apache.orc.impl.PositionProvider;

/**
 * One of orc-core's length streams (the element counts of a list or map, the byte lengths of
 * strings and binaries), checked before orc-core allocates from what it decodes.
 *
 * <p>Why: orc-core sums a batch's lengths and allocates the child vector (list, map) or the byte
 * array (string, binary) of that size before it reads any of it, so a corrupt length stream asks
 * for an array of any size, and the JVM fails with an {@link OutOfMemoryError} (or, with {@code
 * -XX:+ExitOnOutOfMemoryError}, exits). Here each batch of lengths is checked as it is decoded: no
 * length is negative, and their sum stays within {@code limit}, the reader's memory bound for one
 * batch's values; otherwise a {@link CorruptFileException} names the file, stripe and column.
 *
 * <p>Confined to the thread of the record reader that owns the stream.
 */
final class LengthCheck implements IntegerReader {

  private final IntegerReader in;
  private final long limit;
  private final String unit;
  private final String where;

  /**
   * @param in orc-core's reader of the length stream
   * @param limit the most a batch's lengths may add up to
   * @param unit what a length counts ("elements", "bytes")
   * @param where the file, stripe and column, for messages
   */
  LengthCheck(IntegerReader in, long limit, String unit, String where) {
    this.in = in;
    this.limit = limit;
    this.unit = unit;
    this.where = where;
  }

  /** The reader this one checks. */
  IntegerReader delegate() {
    return in;
  }

  @Override
  public void seek(PositionProvider index) throws IOException {
    in.seek(index);
  }

  @Override
  public void skip(long numValues) throws IOException {
    in.skip(numValues);
  }

  @Override
  public boolean hasNext() throws IOException {
    return in.hasNext();
  }

  @Override
  public long next() throws IOException {
    long value = in.next();
    if (value < 0 || value > limit) {
      throw corrupt("a length of " + value + " " + unit);
    }
    return value;
  }

  @Override
  public void nextVector(ColumnVector column, long[] data, int size) throws IOException {
    in.nextVector(column, data, size);
    if (column.isRepeating) {
      if (size > 0 && (column.noNulls || !column.isNull[0])) {
        check(data[0], size);
      }
      return;
    }
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (column.noNulls || !column.isNull[i]) {
        long value = data[i];
        if (value < 0) {
          throw corrupt("a length of " + value + " " + unit);
        }
        total += value;
        if (total > limit) {
          throw tooMany(total, size);
        }
      }
    }
  }

  @Override
  public void nextVector(ColumnVector column, int[] data, int size) throws IOException {
    in.nextVector(column, data, size);
    if (column.isRepeating) {
      if (size > 0 && (column.noNulls || !column.isNull[0])) {
        check(data[0], size);
      }
      return;
    }
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (column.noNulls || !column.isNull[i]) {
        int value = data[i];
        if (value < 0) {
          throw corrupt("a length of " + value + " " + unit);
        }
        total += value;
        if (total > limit) {
          throw tooMany(total, size);
        }
      }
    }
  }

  private void check(long repeated, int size) throws CorruptFileException {
    if (repeated < 0) {
      throw corrupt("a length of " + repeated + " " + unit);
    }
    if (repeated > 0 && repeated > limit / size) {
      throw tooMany(
          Math.multiplyHigh(repeated, size) != 0 ? Long.MAX_VALUE : repeated * size, size);
    }
  }

  private CorruptFileException tooMany(long total, int rows) {
    return corrupt(
        rows
            + " values claim "
            + (total == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(total))
            + " "
            + unit
            + " together, more than the "
            + limit
            + " one batch may hold (prefetch.max-buffered-bytes; lower read.batch-size for values"
            + " this long)");
  }

  private CorruptFileException corrupt(String what) {
    return new CorruptFileException("Corrupt ORC file " + where + ": " + what);
  }
}
