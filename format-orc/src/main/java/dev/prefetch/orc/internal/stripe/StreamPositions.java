package dev.prefetch.orc.internal.stripe;

import java.util.ArrayList;
import java.util.List;
import org.apache.orc.OrcProto;
import org.apache.orc.TypeDescription;

/**
 * Which positions of a column's row index entry belong to which of its streams: the order of the
 * ORC specification in which a column reader seeks its streams (PRESENT first when the stripe has
 * it), each stream's own positions (a compressed stream's block and the bytes into it, an
 * uncompressed stream's byte) followed by its decoder's (values of the run to skip, and for a
 * boolean stream the bits of the byte). Used to bound the bytes a read of some row groups needs;
 * the readers take the same positions in the same order as they seek.
 */
public final class StreamPositions {

  /**
   * One positioned stream of a column: its kind and the index, in the entry, of its first position
   * (the byte offset of the stream's data at the row group, or of the compression block holding
   * it).
   */
  public record Part(OrcProto.Stream.Kind kind, int first) {}

  private StreamPositions() {}

  /**
   * The positioned streams of a column of {@code type} with encoding {@code encoding}, in their
   * order; null for a type or encoding whose layout is unknown here (its streams are then read
   * whole).
   *
   * @param present whether the stripe has the column's PRESENT stream
   * @param compressed whether the file is compressed (a stream position is then two numbers)
   * @param decimal64 whether decimals of at most 18 digits are written as integers (files of
   *     orc-core's version UNSTABLE_PRE_2_0)
   */
  public static List<Part> of(
      TypeDescription type,
      OrcProto.ColumnEncoding.Kind encoding,
      boolean present,
      boolean compressed,
      boolean decimal64) {
    int stream = compressed ? 2 : 1;
    List<Part> parts = new ArrayList<>(3);
    int at = 0;
    if (present) {
      parts.add(new Part(OrcProto.Stream.Kind.PRESENT, 0));
      at = stream + 2;
    }
    boolean dictionary =
        encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY
            || encoding == OrcProto.ColumnEncoding.Kind.DICTIONARY_V2;
    switch (type.getCategory()) {
      case BOOLEAN -> parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
      case BYTE, SHORT, INT, LONG, DATE, FLOAT, DOUBLE, UNION ->
          parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
      case STRING, CHAR, VARCHAR -> {
        parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
        if (!dictionary) {
          parts.add(new Part(OrcProto.Stream.Kind.LENGTH, at + stream));
        }
      }
      case BINARY, Geometry, Geography -> {
        parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
        parts.add(new Part(OrcProto.Stream.Kind.LENGTH, at + stream));
      }
      case DECIMAL -> {
        parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
        if (!decimal64 || type.getPrecision() > TypeDescription.MAX_DECIMAL64_PRECISION) {
          parts.add(new Part(OrcProto.Stream.Kind.SECONDARY, at + stream));
        }
      }
      case TIMESTAMP, TIMESTAMP_INSTANT -> {
        parts.add(new Part(OrcProto.Stream.Kind.DATA, at));
        parts.add(new Part(OrcProto.Stream.Kind.SECONDARY, at + stream + 1));
      }
      case LIST, MAP -> parts.add(new Part(OrcProto.Stream.Kind.LENGTH, at));
      case STRUCT -> {
        // PRESENT only
      }
      default -> {
        return null;
      }
    }
    return parts;
  }
}
