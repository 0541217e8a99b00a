package dev.prefetch.batch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ordered top-level fields of a read: the projected columns of a file, in the order the batches
 * carry their vectors.
 */
public final class Schema {

  private final List<Field> fields;
  private final Map<String, Integer> indexByName;

  public Schema(List<Field> fields) {
    this.fields = List.copyOf(fields);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < this.fields.size(); i++) {
      index.putIfAbsent(this.fields.get(i).name(), i);
    }
    this.indexByName = Map.copyOf(index);
  }

  public List<Field> fields() {
    return fields;
  }

  public int size() {
    return fields.size();
  }

  public Field field(int index) {
    return fields.get(index);
  }

  /** Index of the first field named {@code name}, or -1. */
  public int indexOf(String name) {
    return indexByName.getOrDefault(name, -1);
  }

  public Optional<Field> field(String name) {
    int i = indexOf(name);
    return i < 0 ? Optional.empty() : Optional.of(fields.get(i));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema other && fields.equals(other.fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
