package dev.prefetch.parquet.internal.flat;

import dev.prefetch.batch.DataType;
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
        return new BooleanAdapter(mapped, arrays);
      case INT32:
        switch (mapped.kind()) {
          case INT8:
            return new ByteAdapter(mapped, arrays);
          case INT16:
            return new ShortAdapter(mapped, arrays);
          case INT32:
          case DATE:
            return new IntAdapter(mapped, arrays);
          case INT64:
            return new WideningIntAdapter(mapped, true, arrays); // INT(32, unsigned)
          case TIME:
          case DECIMAL:
            return new WideningIntAdapter(mapped, false, arrays);
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
        return new LongAdapter(mapped, arrays);
      case INT96:
        return new Int96Adapter(mapped, arrays);
      case FLOAT:
        return new FloatAdapter(mapped, arrays);
      case DOUBLE:
        return new DoubleAdapter(mapped, arrays);
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
