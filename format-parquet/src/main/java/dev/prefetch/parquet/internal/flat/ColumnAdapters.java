package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.DataType;
import dev.prefetch.spi.VectorArrayPool;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The one place that chooses a leaf column's {@link ColumnAdapter}, from its physical type and the
 * logical type it maps to (the mapping itself is {@code LeafTypes}); flat columns and the leaves of
 * nested ones both read through the adapter chosen here.
 */
public final class ColumnAdapters {

  private ColumnAdapters() {}

  /**
   * The adapter that turns {@code type}'s physical values into vectors of {@code mapped}.
   *
   * @param arrays where the adapter takes its vectors' arrays from
   * @throws IllegalArgumentException for a pair the type mapping never produces
   */
  public static ColumnAdapter<?> forColumn(
      PrimitiveType type, DataType mapped, VectorArrayPool arrays) {
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return InPlaceAdapter.booleans(mapped, arrays);
      case INT32:
        switch (mapped.kind()) {
          case INT8:
            return converted(mapped, arrays, IntConversion.BYTES);
          case INT16:
            return converted(mapped, arrays, IntConversion.SHORTS);
          case INT32:
          case DATE:
            return InPlaceAdapter.ints(mapped, arrays);
          case INT64:
            return converted(mapped, arrays, IntConversion.UNSIGNED_LONGS);
          case TIME:
          case DECIMAL:
            return converted(mapped, arrays, IntConversion.SIGNED_LONGS);
          default:
            break;
        }
        break;
      case INT64:
        if (mapped.kind() == DataType.Kind.DECIMAL
            && mapped.precision() > DataType.MAX_LONG_DECIMAL_PRECISION) {
          boolean unsigned = type.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation;
          return new ConvertedPrimitiveAdapter<>(
              mapped,
              arrays,
              long[].class,
              unsigned ? Int64Bytes.UNSIGNED_BYTES : Int64Bytes.SIGNED_BYTES);
        }
        return InPlaceAdapter.longs(mapped, arrays);
      case INT96:
        return new ConvertedBinaryAdapter(
            mapped, Int96Timestamps.INT96_BYTES, arrays, BinaryConversion.INT96);
      case FLOAT:
        return InPlaceAdapter.floats(mapped, arrays);
      case DOUBLE:
        return InPlaceAdapter.doubles(mapped, arrays);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (mapped.kind() == DataType.Kind.FLOAT32) {
          return new ConvertedBinaryAdapter(
              mapped, Float16.FLOAT16_BYTES, arrays, BinaryConversion.FLOAT16);
        }
        if (mapped.kind() == DataType.Kind.DECIMAL
            && mapped.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
          return new ConvertedBinaryAdapter(
              mapped, type.getTypeLength(), arrays, BinaryConversion.DECIMAL);
        }
        return new BinaryAdapter(mapped, arrays);
      default:
        break;
    }
    throw new IllegalArgumentException("no adapter reads " + type + " as " + mapped);
  }

  /**
   * Whether {@code type}, read as {@code mapped}, can be read as dictionary ids ({@link
   * #dictionaryIds}): byte arrays kept as they are (strings, binaries, fixed binaries), not those
   * converted into numbers.
   */
  public static boolean readsDictionaryIds(PrimitiveType type, DataType mapped) {
    PrimitiveType.PrimitiveTypeName physical = type.getPrimitiveTypeName();
    return (physical == PrimitiveType.PrimitiveTypeName.BINARY
            || physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
        && (mapped.kind() == DataType.Kind.STRING
            || mapped.kind() == DataType.Kind.BINARY
            || mapped.kind() == DataType.Kind.FIXED_BINARY);
  }

  /**
   * The adapter that reads a chunk of dictionary-encoded byte arrays as {@link
   * dev.prefetch.batch.DictionaryVector}s, for a column {@link #readsDictionaryIds} accepts.
   */
  public static ColumnAdapter<?> dictionaryIds(DataType mapped, VectorArrayPool arrays) {
    return new DictionaryIdsAdapter(mapped, arrays);
  }

  private static ColumnAdapter<int[]> converted(
      DataType mapped, VectorArrayPool arrays, IntConversion conversion) {
    return new ConvertedPrimitiveAdapter<>(mapped, arrays, int[].class, conversion);
  }
}
