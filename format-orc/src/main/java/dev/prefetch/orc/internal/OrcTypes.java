package dev.prefetch.orc.internal;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DataType.TimeUnit;
import dev.prefetch.batch.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.orc.TypeDescription;

/**
 * Maps ORC types to the project's {@link DataType}s. Every ORC field is nullable.
 *
 * <table>
 *   <caption>ORC type to data type</caption>
 *   <tr><th>ORC</th><th>data type</th></tr>
 *   <tr><td>boolean, tinyint, smallint, int, bigint</td><td>BOOLEAN, INT8, INT16, INT32, INT64</td></tr>
 *   <tr><td>float, double</td><td>FLOAT32, FLOAT64</td></tr>
 *   <tr><td>string, char(n), varchar(n)</td><td>STRING (char values padded as orc-core returns them)</td></tr>
 *   <tr><td>binary, geometry, geography</td><td>BINARY (geometry and geography as their WKB bytes)</td></tr>
 *   <tr><td>decimal(p,s)</td><td>DECIMAL(p,s): unscaled longs for p &le; 18, else big-endian bytes</td></tr>
 *   <tr><td>date</td><td>DATE (days since 1970-01-01)</td></tr>
 *   <tr><td>timestamp</td><td>TIMESTAMP(NANOS), not UTC-adjusted: the wall-clock date-time as
 *       nanoseconds since 1970-01-01T00:00 of that wall clock</td></tr>
 *   <tr><td>timestamp with local time zone</td><td>TIMESTAMP(NANOS, utc): nanoseconds since the
 *       epoch</td></tr>
 *   <tr><td>array&lt;T&gt;</td><td>LIST of a field "element"</td></tr>
 *   <tr><td>map&lt;K,V&gt;</td><td>MAP of fields "key" and "value"</td></tr>
 *   <tr><td>struct</td><td>STRUCT with the ORC field names</td></tr>
 *   <tr><td>uniontype&lt;T0,T1,...&gt;</td><td>STRUCT of an INT8 field "tag" (the alternative a
 *       value holds) and one field per alternative, "field0", "field1", ...; in a row only the
 *       field of its tag is non-null, and a null union has a null tag and null fields</td></tr>
 * </table>
 *
 * A file whose root type is not a struct (the ORC specification allows any type at the root, and
 * orc-core reads such files) reads as one column named {@value #NON_STRUCT_ROOT_COLUMN}, Hive's
 * name for an unnamed first column, of the root type's mapping.
 */
public final class OrcTypes {

  /** The one column of a file whose root type is not a struct. */
  public static final String NON_STRUCT_ROOT_COLUMN = "_col0";

  /** Name of the union tag field of a union's struct. */
  public static final String UNION_TAG = "tag";

  /** Prefix of the union alternative fields: "field0", "field1", ... */
  public static final String UNION_FIELD_PREFIX = "field";

  private OrcTypes() {}

  /** The data type of an ORC type. */
  public static DataType toDataType(TypeDescription type) {
    switch (type.getCategory()) {
      case BOOLEAN:
        return DataType.bool();
      case BYTE:
        return DataType.int8();
      case SHORT:
        return DataType.int16();
      case INT:
        return DataType.int32();
      case LONG:
        return DataType.int64();
      case FLOAT:
        return DataType.float32();
      case DOUBLE:
        return DataType.float64();
      case STRING:
      case CHAR:
      case VARCHAR:
        return DataType.string();
      case BINARY:
      case Geometry:
      case Geography:
        return DataType.binary();
      case DECIMAL:
        return DataType.decimal(type.getPrecision(), type.getScale());
      case DATE:
        return DataType.date();
      case TIMESTAMP:
        return DataType.timestamp(TimeUnit.NANOS, false);
      case TIMESTAMP_INSTANT:
        return DataType.timestamp(TimeUnit.NANOS, true);
      case LIST:
        return DataType.list(toField("element", type.getChildren().get(0)));
      case MAP:
        return DataType.map(
            toField("key", type.getChildren().get(0)), toField("value", type.getChildren().get(1)));
      case STRUCT:
        {
          List<Field> fields = new ArrayList<>();
          List<String> names = type.getFieldNames();
          for (int i = 0; i < names.size(); i++) {
            fields.add(toField(names.get(i), type.getChildren().get(i)));
          }
          return DataType.struct(fields);
        }
      case UNION:
        {
          List<Field> fields = new ArrayList<>();
          fields.add(Field.of(UNION_TAG, DataType.int8()));
          List<TypeDescription> children = type.getChildren();
          for (int i = 0; i < children.size(); i++) {
            fields.add(toField(UNION_FIELD_PREFIX + i, children.get(i)));
          }
          return DataType.struct(fields);
        }
      default:
        throw new IllegalArgumentException("unsupported ORC type " + type);
    }
  }

  /**
   * The field {@code name} of ORC type {@code type}: a union's says so in {@link Field#FILE_TYPE},
   * since its batch type is a plain STRUCT of the tag and the alternatives.
   */
  static Field toField(String name, TypeDescription type) {
    Field field = Field.of(name, toDataType(type));
    return type.getCategory() == TypeDescription.Category.UNION
        ? field.withMetadata(Field.FILE_TYPE, "union")
        : field;
  }
}
