package dev.prefetch.parquet.internal.flat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.LeafTypes;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every branch of the one adapter factory: each physical and logical type gets its adapter. */
class ColumnAdaptersTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "boolean x; BooleanAdapter",
        "int32 x; IntAdapter",
        "int32 x (INTEGER(32,true)); IntAdapter",
        "int32 x (INTEGER(16,false)); IntAdapter",
        "int32 x (DATE); IntAdapter",
        "int32 x (INTEGER(8,true)); ByteAdapter",
        "int32 x (INTEGER(16,true)); ShortAdapter",
        "int32 x (INTEGER(8,false)); ShortAdapter",
        "int32 x (INTEGER(32,false)); WideningIntAdapter",
        "int32 x (TIME(MILLIS,true)); WideningIntAdapter",
        "int32 x (DECIMAL(9,2)); WideningIntAdapter",
        "int64 x; LongAdapter",
        "int64 x (TIMESTAMP(NANOS,true)); LongAdapter",
        "int64 x (TIME(MICROS,false)); LongAdapter",
        "int64 x (DECIMAL(18,4)); LongAdapter",
        "int64 x (INTEGER(64,false)); Int64BytesAdapter",
        "int96 x; Int96Adapter",
        "float x; FloatAdapter",
        "double x; DoubleAdapter",
        "binary x; BinaryAdapter",
        "binary x (STRING); BinaryAdapter",
        "binary x (DECIMAL(20,3)); BinaryAdapter",
        "binary x (DECIMAL(12,3)); BigEndianDecimalAdapter",
        "fixed_len_byte_array(16) x (UUID); BinaryAdapter",
        "fixed_len_byte_array(16) x (DECIMAL(38,10)); BinaryAdapter",
        "fixed_len_byte_array(8) x (DECIMAL(15,2)); BigEndianDecimalAdapter",
        "fixed_len_byte_array(2) x (FLOAT16); Float16Adapter"
      })
  void eachTypeGetsTheAdapterOfItsMappedType(String column, String adapter) {
    PrimitiveType type = primitive(column);

    ColumnAdapter<?> chosen =
        ColumnAdapters.forColumn(type, LeafTypes.typeOf(type), VectorArrayPool.none());

    assertThat(chosen.getClass().getSimpleName()).isEqualTo(adapter);
  }

  @Test
  void anInt64DecimalDeclaredAboveEighteenDigitsIsReadAsBytes() {
    // parquet-java's own schema builder refuses it; other writers have written it
    PrimitiveType type =
        new PrimitiveType(
                PrimitiveType.Repetition.OPTIONAL, PrimitiveType.PrimitiveTypeName.INT64, "x")
            .withLogicalTypeAnnotation(LogicalTypeAnnotation.decimalType(4, 20));

    ColumnAdapter<?> chosen =
        ColumnAdapters.forColumn(type, LeafTypes.typeOf(type), VectorArrayPool.none());

    assertThat(chosen).isInstanceOf(Int64BytesAdapter.class);
  }

  @Test
  void aPairTheTypeMappingNeverProducesIsRejected() {
    assertThatThrownBy(
            () ->
                ColumnAdapters.forColumn(
                    primitive("int32 x"), DataType.string(), VectorArrayPool.none()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no adapter reads");
  }

  private static PrimitiveType primitive(String column) {
    return MessageTypeParser.parseMessageType("message m { optional " + column + "; }")
        .getType(0)
        .asPrimitiveType();
  }
}
