package dev.prefetch.batch;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A named, typed column or nested field.
 *
 * <p>{@code metadata} holds what the format knows of the field beyond its batch type, as string
 * pairs (empty for most fields). The one key the formats set is {@link #FILE_TYPE}.
 *
 * @param name the field's name as the file stores it
 * @param type its logical type
 * @param nullable whether values may be null
 * @param metadata what the format says of the field beyond its type, immutable
 */
public record Field(String name, DataType type, boolean nullable, Map<String, String> metadata) {

  /**
   * The file's own type of a field whose batch type is wider than it or does not name it, set by
   * the format: {@code uint8}, {@code uint16}, {@code uint32}, {@code uint64} (an unsigned integer,
   * read as the next wider signed kind, or as DECIMAL(20, 0) for 64 bits), {@code float16} (read as
   * FLOAT32), {@code union} (an ORC union, read as a STRUCT of its tag and its alternatives).
   * Absent when the batch type says all there is to say. An engine that has these types (Arrow)
   * reads them from here instead of from the file.
   */
  public static final String FILE_TYPE = "prefetch.file-type";

  public Field {
    Objects.requireNonNull(name, "name is null");
    Objects.requireNonNull(type, "type is null");
    metadata = Map.copyOf(Objects.requireNonNull(metadata, "metadata is null"));
  }

  /** A field without metadata. */
  public Field(String name, DataType type, boolean nullable) {
    this(name, type, nullable, Map.of());
  }

  /** A nullable field. */
  public static Field of(String name, DataType type) {
    return new Field(name, type, true);
  }

  /** This field with {@code key} set to {@code value} in its metadata. */
  public Field withMetadata(String key, String value) {
    Map<String, String> more = new HashMap<>(metadata);
    more.put(Objects.requireNonNull(key, "key is null"), Objects.requireNonNull(value, "value"));
    return new Field(name, type, nullable, more);
  }

  /** The file's own type where the batch type differs ({@link #FILE_TYPE}), else empty. */
  public Optional<String> fileType() {
    return Optional.ofNullable(metadata.get(FILE_TYPE));
  }

  @Override
  public String toString() {
    return name
        + ": "
        + type
        + (nullable ? "" : " not null")
        + (metadata.isEmpty() ? "" : " " + metadata);
  }
}
