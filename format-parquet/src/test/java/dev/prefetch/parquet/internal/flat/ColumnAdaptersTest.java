package dev.prefetch.parquet.internal.flat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.batch.DataType;
import dev.prefetch.parquet.internal.plan.LeafTypes;
import dev.prefetch.spi.VectorArrayPool;
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
        "boolean x; InPlaceAdapter booleans",
        "int32 x; InPlaceAdapter ints",
        "int32 x (INTEGER(32,true)); InPlaceAdapter ints",
        "int32 x (INTEGER(16,false)); InPlaceAdapter ints",
        "int32 x (DATE); InPlaceAdapter ints",
        "int32 x (INTEGER(8,true)); ConvertedPrimitiveAdapter BYTES",
        "int32 x (INTEGER(16,true)); ConvertedPrimitiveAdapter SHORTS",
        "int32 x (INTEGER(8,false)); ConvertedPrimitiveAdapter SHORTS",
        "int32 x (INTEGER(32,false)); ConvertedPrimitiveAdapter UNSIGNED_LONGS",
        "int32 x (TIME(MILLIS,true)); ConvertedPrimitiveAdapter SIGNED_LONGS",
        "int32 x (DECIMAL(9,2)); ConvertedPrimitiveAdapter SIGNED_LONGS",
        "int64 x; InPlaceAdapter longs",
        "int64 x (TIMESTAMP(NANOS,true)); InPlaceAdapter longs",
        "int64 x (TIME(MICROS,false)); InPlaceAdapter longs",
        "int64 x (DECIMAL(18,4)); InPlaceAdapter longs",
        "int64 x (INTEGER(64,false)); ConvertedPrimitiveAdapter UNSIGNED_BYTES",
        "int96 x; ConvertedBinaryAdapter INT96",
        "float x; InPlaceAdapter floats",
        "double x; InPlaceAdapter doubles",
        "binary x; BinaryAdapter",
        "binary x (STRING); BinaryAdapter",
        "binary x (DECIMAL(20,3)); BinaryAdapter",
        "binary x (DECIMAL(12,3)); ConvertedBinaryAdapter DECIMAL",
        "fixed_len_byte_array(16) x (UUID); BinaryAdapter",
        "fixed_len_byte_array(16) x (DECIMAL(38,10)); BinaryAdapter",
        "fixed_len_byte_array(8) x (DECIMAL(15,2)); ConvertedBinaryAdapter DECIMAL",
        "fixed_len_byte_array(2) x (FLOAT16); ConvertedBinaryAdapter FLOAT16"
      })
  void eachTypeGetsTheAdapterOfItsMappedType(String column, String adapter) {
    PrimitiveType type = primitive(column);

    ColumnAdapter<?> chosen =
        ColumnAdapters.forColumn(type, LeafTypes.typeOf(type), VectorArrayPool.none());

    assertThat(described(chosen)).isEqualTo(adapter);
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

    assertThat(chosen).hasToString("ConvertedPrimitiveAdapter SIGNED_BYTES");
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

  /** The class, and for an adapter that serves several types the one it serves here. */
  private static String described(ColumnAdapter<?> adapter) {
    return adapter instanceof InPlaceAdapter
            || adapter instanceof ConvertedPrimitiveAdapter
            || adapter instanceof ConvertedBinaryAdapter
        ? adapter.toString()
        : adapter.getClass().getSimpleName();
  }

  private static PrimitiveType primitive(String column) {
    return MessageTypeParser.parseMessageType("message m { optional " + column + "; }")
        .getType(0)
        .asPrimitiveType();
  }
}
