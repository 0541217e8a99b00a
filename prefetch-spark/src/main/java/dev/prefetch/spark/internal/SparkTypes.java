package dev.prefetch.spark.internal;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Our types as Spark types, for files whose schema Spark's own inference cannot express (ORC
 * unions): a union is the struct {@code tag} (tinyint) plus {@code field0, field1, ...}, as our ORC
 * reader gives it. Plain ORC timestamps are Spark {@code TIMESTAMP}s, as Spark's ORC reader has
 * them.
 */
final class SparkTypes {

  private SparkTypes() {}

  static StructType of(Schema schema) {
    return struct(schema.fields());
  }

  private static StructType struct(List<Field> fields) {
    List<StructField> out = new ArrayList<>();
    for (Field field : fields) {
      out.add(DataTypes.createStructField(field.name(), of(field.type()), field.nullable()));
    }
    return DataTypes.createStructType(out);
  }

  static org.apache.spark.sql.types.DataType of(DataType type) {
    return switch (type.kind()) {
      case BOOLEAN -> DataTypes.BooleanType;
      case INT8 -> DataTypes.ByteType;
      case INT16 -> DataTypes.ShortType;
      case INT32 -> DataTypes.IntegerType;
      case INT64 -> DataTypes.LongType;
      case FLOAT32 -> DataTypes.FloatType;
      case FLOAT64 -> DataTypes.DoubleType;
      case DECIMAL -> DataTypes.createDecimalType(type.precision(), type.scale());
      case DATE -> DataTypes.DateType;
      case TIMESTAMP -> DataTypes.TimestampType;
      case STRING -> DataTypes.StringType;
      case BINARY, FIXED_BINARY -> DataTypes.BinaryType;
      case LIST ->
          DataTypes.createArrayType(of(type.elementField().type()), type.elementField().nullable());
      case MAP ->
          DataTypes.createMapType(
              of(type.keyField().type()),
              of(type.valueField().type()),
              type.valueField().nullable());
      case STRUCT -> struct(type.children());
      case TIME -> throw new IllegalArgumentException("no Spark type for " + type);
    };
  }
}
