package dev.prefetch.batch;

import java.util.Objects;

/**
 * A named, typed column or nested field.
 *
 * @param name the field's name as the file stores it
 * @param type its logical type
 * @param nullable whether values may be null
 */
public record Field(String name, DataType type, boolean nullable) {

  public Field {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(type, "type is null");
  }

  /** A nullable field. */
  public static Field of(String name, DataType type) {
    return new Field(name, type, true);
  }

  @Override
  public String toString() {
    return name + ": " + type + (nullable ? "" : " not null");
  }
}
