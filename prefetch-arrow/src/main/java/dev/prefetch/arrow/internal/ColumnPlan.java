package dev.prefetch.arrow.internal;

import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How one batch field becomes one Arrow field: the Arrow field and the conversion that fills its
 * buffers, with the plans of its nested fields (a list's element; a map's key and value; a struct's
 * fields; a union's alternatives; a dictionary-encoded field's values).
 *
 * @param arrowField the Arrow field, with its children
 * @param conversion how the vector's buffers are filled
 * @param byteWidth bytes per value of a decimal or fixed-size binary; 0 otherwise
 * @param children the plans of the nested fields
 */
public record ColumnPlan(
    Field arrowField, Conversion conversion, int byteWidth, List<ColumnPlan> children) {

  public ColumnPlan {
    Objects.requireNonNull(arrowField, "arrowField is null");
    Objects.requireNonNull(conversion, "conversion is null");
    children = List.copyOf(children);
  }

  /** How a batch vector fills an Arrow vector. */
  public enum Conversion {
    /** boolean[] to a bitmap. */
    BOOL,
    /** Same-width primitives, copied in bulk: byte, short, int, long, float, double, date. */
    BYTES_1,
    BYTES_2,
    BYTES_4,
    BYTES_8,
    /** Widened unsigned integers narrowed back: short to uint8, int to uint16, long to uint32. */
    UINT8,
    UINT16,
    UINT32,
    /** DECIMAL(20, 0) bytes of an unsigned 64-bit integer to its 64 bits. */
    UINT64,
    /** FLOAT32 of a FLOAT16 column back to half float (exact: it was widened exactly). */
    FLOAT16,
    /** TIME(MILLIS) longs to Arrow's 32-bit milliseconds. */
    TIME32,
    /** Unscaled longs to 16 or 32 bytes little endian. */
    DECIMAL_LONG,
    /** Big-endian unscaled bytes to 16 or 32 bytes little endian. */
    DECIMAL_BYTES,
    /** Offsets and bytes, copied in bulk: strings and binaries. */
    VARIABLE,
    /** Fixed-size binary values, copied in bulk when no value is null. */
    FIXED,
    LIST,
    MAP,
    STRUCT,
    /** An ORC union's STRUCT(tag, alternatives...) to a dense union. */
    DENSE_UNION,
    /**
     * Strings or binaries as int32 indices into a dictionary, whose vector the plan's one child
     * fills; the Arrow field is the dictionary's value field with its {@code DictionaryEncoding}
     * (Arrow's message format), and the root holds the indices.
     */
    DICTIONARY
  }
}
