package dev.prefetch.arrow.internal;

import java.util.List;
import java.util.Objects;

/**
 * What the file declared for a field whose batch type is wider than the file's own type: an
 * unsigned Parquet integer (widened to the next signed kind, or to DECIMAL(20, 0) for 64 bits), a
 * Parquet FLOAT16 (widened to FLOAT32), or an ORC union (a STRUCT of a tag and its alternatives). A
 * tree parallel to the batch type: {@code children} follow {@code DataType.children()} (for a
 * union: its alternatives, without the tag).
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
}
