package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.orc.internal.io.IndexPositions;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.BooleanDecoder;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import dev.prefetch.spi.VectorArrayPool;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one column of one stripe into vectors, a batch at a time: the part every type shares (nulls
 * from the PRESENT stream, seeking to a row group, skipping rows), with each type family's values
 * in a subclass. Made for one stripe by {@link ColumnReaders}, which chose it from the column's
 * type and the stripe's encoding.
 *
 * <h2>Nulls</h2>
 *
 * A row is null when the column's PRESENT stream says so, or when the row is null above the column
 * (a struct or union holding it, given as {@code parentNulls}): such a row has no PRESENT bit and
 * no value, as orc-core reads it. The values of the rows that are not null are decoded densely, in
 * one decoder call per batch, and spread over their rows ({@link Spread}). A batch without nulls
 * has a null mask of null.
 *
 * <h2>Arrays</h2>
 *
 * Value arrays, null masks and binary data come from the column's {@link VectorArrayPool}, so that
 * the arrays of batches the consumer released are filled again; scratch arrays (dense lengths, ids,
 * scales) are the reader's own and reused.
 *
 * <p>Confined to its range reader's thread. {@link #close()} gives the streams' buffers back.
 */
public abstract class ColumnReader implements AutoCloseable {

  /** The column's id in the file. */
  protected final int column;

  /** The file, stripe and column, for messages. */
  protected final String where;

  /** The PRESENT stream's decoder; null when the stripe has none (no value is null). */
  private final BooleanDecoder present;

  protected final VectorArrayPool pool;

  /** The streams opened, closed with the reader. */
  private final List<StreamInput> inputs = new ArrayList<>(3);

  /** Values the last {@link #readNulls} found not null. */
  private int nonNull;

  /** A mask a batch without nulls did not use, for the next batch. */
  private boolean[] spareMask;

  /** The PRESENT bits of the rows not null above the column, when a parent has nulls. */
  private boolean[] presentBits = new boolean[0];

  protected ColumnReader(int column, String where, StreamInput present, VectorArrayPool pool) {
    this.column = column;
    this.where = where;
    this.pool = pool;
    this.present = present == null ? null : new BooleanDecoder(present);
    owned(present);
  }

  /** Notes a stream the reader opened, to close with it; returns it. */
  protected final StreamInput owned(StreamInput input) {
    if (input != null) {
      inputs.add(input);
    }
    return input;
  }

  /**
   * Reads the next {@code rows} rows.
   *
   * @param parentNulls which rows are null above this column (their PRESENT bits and values are not
   *     in this column's streams), or null when none is
   */
  public abstract ColumnVector read(int rows, boolean[] parentNulls) throws IOException;

  /** Skips the next {@code rows} rows (rows this column's PRESENT stream describes). */
  public void skip(long rows) throws IOException {
    skipValues(present == null ? rows : present.skipCounting(rows));
  }

  /** Skips the next {@code values} values (of rows that are not null). */
  protected abstract void skipValues(long values) throws IOException;

  /**
   * Seeks to the start of row group {@code stride}: PRESENT first when the stripe has it, then the
   * column's other streams in the specification's order, then (nested types) the children.
   */
  public void seek(RowIndexes indexes, int stride) throws IOException {
    IndexPositions positions = indexes.positions(column, stride);
    if (present != null) {
      present.seek(positions);
    }
    seekValues(positions);
  }

  /** Seeks the column's value streams with the positions PRESENT left. */
  protected abstract void seekValues(IndexPositions positions) throws IOException;

  /** Values (rows not null) found by the last {@link #readNulls}. */
  protected final int nonNull() {
    return nonNull;
  }

  /**
   * The null mask of the next {@code rows} rows, or null when none is null; {@link #nonNull()} then
   * says how many values the rows hold.
   */
  protected final boolean[] readNulls(int rows, boolean[] parentNulls) throws IOException {
    if (present == null) {
      if (parentNulls == null) {
        nonNull = rows;
        return null;
      }
      int values = 0;
      for (int i = 0; i < rows; i++) {
        values += parentNulls[i] ? 0 : 1;
      }
      nonNull = values;
      if (values == rows) {
        return null;
      }
      boolean[] mask = mask(rows);
      System.arraycopy(parentNulls, 0, mask, 0, rows);
      return mask;
    }
    boolean[] mask = mask(rows);
    int values;
    if (parentNulls == null) {
      values = present.decodeNulls(mask, 0, rows);
    } else {
      int withParent = 0;
      for (int i = 0; i < rows; i++) {
        withParent += parentNulls[i] ? 0 : 1;
      }
      if (presentBits.length < withParent) {
        presentBits = new boolean[Math.max(withParent, presentBits.length * 2)];
      }
      boolean[] bits = presentBits;
      values = present.decodeNulls(bits, 0, withParent);
      int j = 0;
      for (int i = 0; i < rows; i++) {
        if (parentNulls[i]) {
          mask[i] = true;
        } else {
          mask[i] = bits[j++];
        }
      }
    }
    nonNull = values;
    if (values == rows) {
      spareMask = mask;
      return null;
    }
    return mask;
  }

  private boolean[] mask(int rows) {
    boolean[] spare = spareMask;
    if (spare != null && spare.length >= rows) {
      spareMask = null;
      return spare;
    }
    return pool.mask(rows);
  }

  @Override
  public void close() {
    for (StreamInput input : inputs) {
      input.close();
    }
    inputs.clear();
  }
}
