package dev.prefetch.arrow.internal;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the file declared for a field whose batch type is wider than the file's own type: an
 * unsigned Parquet integer (widened to the next signed kind, or to DECIMAL(20, 0) for 64 bits), a
 * Parquet FLOAT16 (widened to FLOAT32), or an ORC union (a STRUCT of a tag and its alternatives). A
 * tree parallel to the batch type: {@code children} follow {@code DataType.children()} (for a
 * union: its alternatives, without the tag). Read from the {@link Field#FILE_TYPE} the format set
 * on each field of the batch schema ({@link #of(Field)}).
 *
 * @param kind what the file declared
 * @param bitWidth the width of an unsigned integer (8, 16, 32, 64); 0 otherwise
 * @param children the source types of the nested fields, or empty for a leaf
 */
public record SourceType(Kind kind, int bitWidth, List<SourceType> children) {

  /** What a field was in the file, where it differs from its batch type. */
  public enum Kind {
    PLAIN,
    UNSIGNED,
    FLOAT16,
    UNION
  }

  /** A field whose batch type says all there is to say. */
  public static final SourceType PLAIN = new SourceType(Kind.PLAIN, 0, List.of());

  public SourceType {
    Objects.requireNonNull(kind, "kind is null");
    children = List.copyOf(children);
    if (kind == Kind.UNSIGNED
        && bitWidth != 8
        && bitWidth != 16
        && bitWidth != 32
        && bitWidth != 64) {
      throw new IllegalArgumentException(
          "unsigned integer width must be 8, 16, 32 or 64: " + bitWidth);
    }
  }

  /** An unsigned integer of {@code bitWidth} bits. */
  public static SourceType unsigned(int bitWidth) {
    return new SourceType(Kind.UNSIGNED, bitWidth, List.of());
  }

  /** A nested field whose own type is plain. */
  public static SourceType nested(List<SourceType> children) {
    return new SourceType(Kind.PLAIN, 0, children);
  }

  /** The source type of nested field {@code index}, PLAIN when none is known. */
  public SourceType child(int index) {
    return index < children.size() ? children.get(index) : PLAIN;
  }

  /** One source type per field of {@code schema}. */
  public static List<SourceType> of(Schema schema) {
    List<SourceType> out = new ArrayList<>(schema.size());
    for (Field field : schema.fields()) {
      out.add(of(field));
    }
    return out;
  }

  /**
   * What the file declared for {@code field} and its nested fields, from their {@link
   * Field#FILE_TYPE}; PLAIN where nothing in the tree says more than its batch type.
   */
  public static SourceType of(Field field) {
    DataType type = field.type();
    String fileType = field.fileType().orElse("");
    switch (fileType) {
      case "uint8":
        return unsigned(8);
      case "uint16":
        return unsigned(16);
      case "uint32":
        return unsigned(32);
      case "uint64":
        return unsigned(64);
      case "float16":
        return new SourceType(Kind.FLOAT16, 0, List.of());
      case "union":
        if (type.kind() == DataType.Kind.STRUCT && !type.children().isEmpty()) {
          // STRUCT<tag, alternative 0, alternative 1, ...>: the tree follows the alternatives.
          List<Field> alternatives = type.children().subList(1, type.children().size());
          List<SourceType> children = new ArrayList<>(alternatives.size());
          for (Field alternative : alternatives) {
            children.add(of(alternative));
          }
          return new SourceType(Kind.UNION, 0, children);
        }
        return PLAIN;
      default:
        break;
    }
    if (!type.kind().isNested()) {
      return PLAIN;
    }
    List<SourceType> children = new ArrayList<>(type.children().size());
    boolean any = false;
    for (Field child : type.children()) {
      SourceType c = of(child);
      any |= c != PLAIN;
      children.add(c);
    }
    return any ? nested(children) : PLAIN;
  }
}
