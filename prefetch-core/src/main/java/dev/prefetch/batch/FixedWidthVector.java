package dev.prefetch.batch;

import java.util.Set;

/**
 * The part that the vectors of one primitive value per row share: the checks at construction, the
 * boxing {@link #getObject(int)} and the size accounting.
 *
 * <p>Each subclass keeps its typed array in its own final field and reads it in its own {@code
 * get(int)}: a consumer's loop over {@code get} stays one inlined array load in a final class, with
 * no per-value call through this class.
 */
abstract sealed class FixedWidthVector extends ColumnVector
    permits BooleanVector,
        ByteVector,
        ShortVector,
        IntVector,
        LongVector,
        FloatVector,
        DoubleVector {

  private final long valueBytes;

  /**
   * @param valueCount the length of the subclass's value array
   * @param bytesPerValue the bytes one entry of that array takes on the heap
   */
  FixedWidthVector(
      DataType type,
      Set<DataType.Kind> kinds,
      int size,
      boolean[] nulls,
      int valueCount,
      int bytesPerValue) {
    super(type, kinds, size, nulls);
    checkLength("values", valueCount, size);
    this.valueBytes = (long) valueCount * bytesPerValue;
  }

  /** The value at {@code index}, boxed; called only for a value that is not null. */
  abstract Object boxed(int index);

  @Override
  public final Object getObject(int index) {
    checkReadable();
    return isNull(index) ? null : boxed(index);
  }

  @Override
  public final long sizeInBytes() {
    return valueBytes + nullMaskBytes();
  }
}
