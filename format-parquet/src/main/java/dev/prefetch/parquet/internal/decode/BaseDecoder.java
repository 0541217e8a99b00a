package dev.prefetch.parquet.internal.decode;

import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import java.util.Arrays;
import java.util.Objects;
import org.apache.parquet.column.ColumnReader;

/**
 * What every decoder shares: its type, the null mask and size of the append path, and the value
 * path of flat columns, which is the append path run over one batch.
 */
abstract class BaseDecoder implements ColumnDecoder {

  private final DataType type;

  /** Append path: values appended so far, and the null mask (allocated at the first null). */
  int size;

  boolean[] nulls;

  BaseDecoder(DataType type) {
    this.type = Objects.requireNonNull(type, "type is null");
  }

  @Override
  public final DataType type() {
    return type;
  }

  /**
   * The value path (flat columns the bulk page decoders do not serve): one value or null per row,
   * appended into storage sized once for the batch.
   */
  @Override
  public final ColumnVector decodeFlat(ColumnReader reader, int maxDefinitionLevel, int rows) {
    if (capacity() < rows) {
      growTo(rows);
    }
    for (int i = 0; i < rows; i++) {
      if (reader.getCurrentDefinitionLevel() == maxDefinitionLevel) {
        appendValue(reader);
      } else {
        appendNull();
      }
      reader.consume();
    }
    return finish();
  }

  /** Physical INT32 values of a bulk batch before they are narrowed or widened. */
  private int[] scratch = new int[0];

  /** This decoder's scratch array of at least {@code rows} ints (contents unspecified). */
  final int[] scratch(int rows) {
    if (scratch.length < rows) {
      scratch = new int[rows];
    }
    return scratch;
  }

  /** Capacity of the value storage of the append path. */
  abstract int capacity();

  /** Grows the value storage of the append path to at least {@code capacity}. */
  abstract void growTo(int capacity);

  /** Makes room for one more appended entry. */
  final void ensureRoom() {
    if (size == capacity()) {
      growTo(Growth.grow(capacity(), size + 1));
    }
    if (nulls != null && nulls.length < capacity()) {
      nulls = Arrays.copyOf(nulls, capacity());
    }
  }

  @Override
  public final void appendNull() {
    ensureRoom();
    if (nulls == null) {
      nulls = new boolean[capacity()];
    }
    nulls[size++] = true;
    afterNull();
  }

  /** Called after a null was appended (size already counts it). */
  void afterNull() {}

  /** The null mask of the append path for the vector being finished; resets size and mask. */
  final boolean[] takeNulls() {
    boolean[] taken = nulls;
    nulls = null;
    size = 0;
    return taken;
  }
}
