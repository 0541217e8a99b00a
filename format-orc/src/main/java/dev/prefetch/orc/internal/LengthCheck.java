package dev.prefetch.orc.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.orc.internal.reader.BatchTooLargeException;
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
 * -XX:+ExitOnOutOfMemoryError}, exits). Here each batch of lengths is checked as it is decoded,
 * against two bounds of different kinds:
 *
 * <ul>
 *   <li>what the file can hold ({@code fileLimit}): no length is negative, and a batch's byte
 *       lengths add up to no more than its stripe's data can decode to (the data length times the
 *       codec's expansion bound), its element counts to no more than one array holds. Otherwise the
 *       file is corrupt: a {@link CorruptFileException} names the file, stripe and column.
 *   <li>what the read's memory budget allows one batch ({@code budgetLimit}, from {@code
 *       prefetch.max-buffered-bytes}). A valid file may exceed it (a list of millions of elements
 *       per row); that is not corruption, so it fails with a {@link BatchTooLargeException} that
 *       names the file, stripe and column and says which options to change.
 * </ul>
 *
 * <p>Confined to the thread of the record reader that owns the stream.
 */
final class LengthCheck implements IntegerReader {

  private final IntegerReader in;
  private final long fileLimit;
  private final long budgetLimit;

  /** The smaller of the two: below it, nothing needs telling apart. */
  private final long limit;

  private final String unit;
  private final String where;

  /**
   * @param in orc-core's reader of the length stream
   * @param fileLimit the most a batch's lengths can add up to in a valid file
   * @param budgetLimit the most the read's memory budget allows a batch's lengths to add up to
   * @param unit what a length counts ("elements", "bytes")
   * @param where the file, stripe and column, for messages
   */
  LengthCheck(IntegerReader in, long fileLimit, long budgetLimit, String unit, String where) {
    this.in = in;
    this.fileLimit = fileLimit;
    this.budgetLimit = budgetLimit;
    this.limit = Math.min(fileLimit, budgetLimit);
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
    if (value < 0) {
      throw corrupt("a length of " + value + " " + unit);
    }
    if (value > limit) {
      throw tooMany(value, 1);
    }
    return value;
  }

  @Override
  public void nextVector(ColumnVector column, long[] data, int size) throws IOException {
    in.nextVector(column, data, size);
    if (column.isRepeating) {
      checkRepeating(column, size > 0 ? data[0] : 0, size);
      return;
    }
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (column.noNulls || !column.isNull[i]) {
        total = added(total, data[i], size);
      }
    }
  }

  @Override
  public void nextVector(ColumnVector column, int[] data, int size) throws IOException {
    in.nextVector(column, data, size);
    if (column.isRepeating) {
      checkRepeating(column, size > 0 ? data[0] : 0, size);
      return;
    }
    long total = 0;
    for (int i = 0; i < size; i++) {
      if (column.noNulls || !column.isNull[i]) {
        total = added(total, data[i], size);
      }
    }
  }

  /** Checks a repeating vector's one length, when it is not null. */
  private void checkRepeating(ColumnVector column, long first, int size) throws IOException {
    if (size > 0 && (column.noNulls || !column.isNull[0])) {
      check(first, size);
    }
  }

  /** {@code total} plus the next non-null length, each checked against the bound. */
  private long added(long total, long value, int size) throws IOException {
    if (value < 0) {
      throw corrupt("a length of " + value + " " + unit);
    }
    long sum = total + value;
    if (sum > limit) {
      throw tooMany(sum, size);
    }
    return sum;
  }

  private void check(long repeated, int size) throws IOException {
    if (repeated < 0) {
      throw corrupt("a length of " + repeated + " " + unit);
    }
    if (repeated > 0 && repeated > limit / size) {
      throw tooMany(
          Math.multiplyHigh(repeated, size) != 0 ? Long.MAX_VALUE : repeated * size, size);
    }
  }

  /** A batch over {@link #limit}: corrupt past what the file can hold, else over the budget. */
  private IOException tooMany(long total, int rows) {
    String claim =
        rows
            + " values claim "
            + (total == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(total))
            + " "
            + unit
            + " together";
    if (total > fileLimit) {
      return corrupt(claim + ", more than the " + fileLimit + " the stripe can hold");
    }
    return new BatchTooLargeException(
        "ORC file "
            + where
            + ": "
            + claim
            + ", more than the "
            + budgetLimit
            + " one batch may hold under prefetch.max-buffered-bytes; lower read.batch-size or"
            + " raise prefetch.max-buffered-bytes to read values this long");
  }

  private CorruptFileException corrupt(String what) {
    return new CorruptFileException("Corrupt ORC file " + where + ": " + what);
  }
}
