package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.flat.ConvertedIntAdapter.Target;
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
            return new ConvertedIntAdapter(mapped, Target.BYTES, arrays);
          case INT16:
            return new ConvertedIntAdapter(mapped, Target.SHORTS, arrays);
          case INT32:
          case DATE:
            return InPlaceAdapter.ints(mapped, arrays);
          case INT64:
            return new ConvertedIntAdapter(mapped, Target.UNSIGNED_LONGS, arrays);
          case TIME:
          case DECIMAL:
            return new ConvertedIntAdapter(mapped, Target.SIGNED_LONGS, arrays);
          default:
            break;
        }
        break;
      case INT64:
        if (mapped.kind() == DataType.Kind.DECIMAL
            && mapped.precision() > DataType.MAX_LONG_DECIMAL_PRECISION) {
          boolean unsigned = type.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation;
          return new Int64BytesAdapter(mapped, unsigned, arrays);
        }
        return InPlaceAdapter.longs(mapped, arrays);
      case INT96:
        return new Int96Adapter(mapped, arrays);
      case FLOAT:
        return InPlaceAdapter.floats(mapped, arrays);
      case DOUBLE:
        return InPlaceAdapter.doubles(mapped, arrays);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (mapped.kind() == DataType.Kind.FLOAT32) {
          return new Float16Adapter(mapped, arrays);
        }
        if (mapped.kind() == DataType.Kind.DECIMAL
            && mapped.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
          return new BigEndianDecimalAdapter(mapped, type.getTypeLength(), arrays);
        }
        return new BinaryAdapter(mapped, arrays);
      default:
        break;
    }
    throw new IllegalArgumentException("no adapter reads " + type + " as " + mapped);
  }
}
