package dev.prefetch.orc.internal.reader;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.BooleanDecoder;
import dev.prefetch.orc.internal.stripe.RowIndexes;
import java.io.IOException;

/**
 * The reader of one output column of a read: a top-level column, or a field inside structs read as
 * a column of its own (a projection such as {@code st.z.q}). For a nested field the PRESENT streams
 * of the structs on its path give the rows that are null above it (a row is null where any struct
 * on the path is), and the field's reader reads with them as its parent's nulls; the structs' other
 * fields are not read.
 *
 * <p>Confined to its range reader's thread.
 */
public final class ProjectedColumnReader implements AutoCloseable {

  private final int[] structs;
  private final BooleanDecoder[] presents;
  private final StreamInput[] inputs;
  private final ColumnReader field;
  private boolean[] above = new boolean[0];
  private boolean[] level = new boolean[0];
  private boolean[] bits = new boolean[0];

  /**
   * @param structs the column ids of the structs on the path, outermost first
   * @param presents their PRESENT streams (an entry null where the stripe has none)
   * @param field the reader of the field itself
   */
  ProjectedColumnReader(int[] structs, StreamInput[] presents, ColumnReader field) {
    this.structs = structs.clone();
    this.inputs = presents.clone();
    this.presents = new BooleanDecoder[presents.length];
    for (int i = 0; i < presents.length; i++) {
      this.presents[i] = presents[i] == null ? null : new BooleanDecoder(presents[i]);
    }
    this.field = field;
  }

  /** The reader of the field itself, below the structs. */
  ColumnReader field() {
    return field;
  }

  /** Reads the next {@code rows} rows of the field. */
  public ColumnVector read(int rows) throws IOException {
    boolean[] nulls = null;
    for (BooleanDecoder present : presents) {
      if (present != null) {
        nulls = levelNulls(present, rows, nulls);
      }
    }
    return field.read(rows, nulls);
  }

  /**
   * The rows null above or at one struct: those null above it, and those whose bit in its PRESENT
   * stream (read only for the others) says null.
   */
  private boolean[] levelNulls(BooleanDecoder present, int rows, boolean[] parentNulls)
      throws IOException {
    if (level.length < rows) {
      level = new boolean[rows];
      above = new boolean[rows];
      bits = new boolean[rows];
    }
    boolean[] out = parentNulls == above ? level : above;
    if (parentNulls == null) {
      present.decodeNulls(out, 0, rows);
      return out;
    }
    int withParent = 0;
    for (int i = 0; i < rows; i++) {
      withParent += parentNulls[i] ? 0 : 1;
    }
    present.decodeNulls(bits, 0, withParent);
    int j = 0;
    for (int i = 0; i < rows; i++) {
      if (parentNulls[i]) {
        out[i] = true;
      } else {
        out[i] = bits[j++];
      }
    }
    return out;
  }

  /** Skips the next {@code rows} rows. */
  public void skip(long rows) throws IOException {
    long left = rows;
    for (BooleanDecoder present : presents) {
      if (present != null) {
        left = present.skipCounting(left);
      }
    }
    field.skip(left);
  }

  /** Seeks every struct's PRESENT stream and the field to the start of row group {@code stride}. */
  public void seek(RowIndexes indexes, int stride) throws IOException {
    for (int i = 0; i < presents.length; i++) {
      if (presents[i] != null) {
        presents[i].seek(indexes.positions(structs[i], stride));
      }
    }
    field.seek(indexes, stride);
  }

  @Override
  public void close() {
    for (StreamInput input : inputs) {
      if (input != null) {
        input.close();
      }
    }
    field.close();
  }
}
