package dev.prefetch.batch;

import java.util.EnumSet;
import java.util.Set;

/**
 * LIST values: row {@code i} holds the child elements {@code offsets[i] .. offsets[i + 1]}. A null
 * list and an empty list both have an empty span; the null mask tells them apart.
 */
public final class ListVector extends OffsetVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.LIST);

  private final ColumnVector elements;

  /**
   * @param type a LIST type
   * @param size number of lists
   * @param offsets {@code size + 1} offsets into {@code elements}; ownership passes
   * @param elements every list's elements, back to back
   * @param nulls the null mask ({@code true} = null), or null when none is null
   */
  public ListVector(
      DataType type, int size, int[] offsets, ColumnVector elements, boolean[] nulls) {
    super(type, KINDS, size, offsets, elements.size(), "element count", nulls);
    this.elements = elements;
  }

  public ColumnVector elements() {
    checkReadable();
    return elements;
  }

  /** An unmodifiable {@code List} of the boxed elements, or null. */
  @Override
  public Object getObject(int index) {
    return boxedSpan(index, elements::getObject);
  }

  @Override
  public long sizeInBytes() {
    return elements.sizeInBytes() + offsetAndNullBytes();
  }

  @Override
  void markReleased() {
    super.markReleased();
    elements.markReleased();
  }
}
