package dev.prefetch.batch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * STRUCT values: one child vector per field, each with the struct's {@link #size()}. A null struct
 * leaves its children's slots unspecified.
 */
public final class StructVector extends ColumnVector {

  private static final Set<DataType.Kind> KINDS = EnumSet.of(DataType.Kind.STRUCT);

  private final List<ColumnVector> children;

  public StructVector(DataType type, int size, List<ColumnVector> children, boolean[] nulls) {
    super(type, KINDS, size, nulls);
    if (children.size() != type.children().size()) {
      throw new IllegalArgumentException(
          "struct has "
              + type.children().size()
              + " fields but "
              + children.size()
              + " child vectors");
    }
    for (ColumnVector child : children) {
      if (child.size() < size) {
        throw new IllegalArgumentException(
            "child vector has " + child.size() + " values, fewer than size " + size);
      }
    }
    this.children = List.copyOf(children);
  }

  public List<ColumnVector> children() {
    checkReadable();
    return children;
  }

  public ColumnVector child(int field) {
    checkReadable();
    return children.get(field);
  }

  /** An unmodifiable {@code List} of the boxed field values in field order, or null. */
  @Override
  public Object getObject(int index) {
    checkReadable();
    if (isNull(index)) {
      return null;
    }
    List<Object> values = new ArrayList<>(children.size());
    for (ColumnVector child : children) {
      values.add(child.getObject(index));
    }
    return Collections.unmodifiableList(values);
  }

  @Override
  public long sizeInBytes() {
    long bytes = nullMaskBytes();
    for (ColumnVector child : children) {
      bytes += child.sizeInBytes();
    }
    return bytes;
  }

  @Override
  void markReleased() {
    super.markReleased();
    for (ColumnVector child : children) {
      child.markReleased();
    }
  }
}
