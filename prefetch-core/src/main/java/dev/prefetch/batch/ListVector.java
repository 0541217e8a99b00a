package dev.prefetch.batch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * LIST values: row {@code i} holds the child elements {@code offsets[i] .. offsets[i + 1]}. A null
 * list and an empty list both have an empty span; the null mask tells them apart.
 */
public final class ListVector extends ColumnVector {

  private final int[] offsets;
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
    super(type, size, nulls);
    if (type.kind() != DataType.Kind.LIST) {
      throw new IllegalArgumentException("ListVector cannot hold " + type);
    }
    checkLength("offsets", offsets.length, size + 1);
    if (offsets[size] > elements.size()) {
      throw new IllegalArgumentException(
          "last offset " + offsets[size] + " is past the element count " + elements.size());
    }
    this.offsets = offsets;
    this.elements = elements;
  }

  public int[] offsets() {
    checkReadable();
    return offsets;
  }

  public ColumnVector elements() {
    checkReadable();
    return elements;
  }

  public int start(int index) {
    checkReadable();
    return offsets[index];
  }

  public int length(int index) {
    checkReadable();
    return offsets[index + 1] - offsets[index];
  }

  /** An unmodifiable {@code List} of the boxed elements, or null. */
  @Override
  public Object getObject(int index) {
    checkReadable();
    if (isNull(index)) {
      return null;
    }
    List<Object> values = new ArrayList<>(length(index));
    for (int i = offsets[index]; i < offsets[index + 1]; i++) {
      values.add(elements.getObject(i));
    }
    return Collections.unmodifiableList(values);
  }

  @Override
  public long sizeInBytes() {
    return 4L * offsets.length + elements.sizeInBytes() + nullMaskBytes();
  }

  @Override
  void markReleased() {
    super.markReleased();
    elements.markReleased();
  }
}
