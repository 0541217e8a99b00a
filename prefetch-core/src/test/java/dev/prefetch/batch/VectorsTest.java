package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VectorsTest {

  @Test
  void nestedVectorsBoxTheirValuesForGenericCallers() {
    DataType element = DataType.int32();
    IntVector elements = new IntVector(element, 5, new int[] {1, 2, 3, 4, 5}, null);
    ListVector lists =
        new ListVector(
            DataType.list(Field.of("element", element)),
            3,
            new int[] {0, 2, 2, 5},
            elements,
            new boolean[] {false, true, false});
    assertThat(lists.getObject(0)).isEqualTo(List.of(1, 2));
    assertThat(lists.getObject(1)).isNull();
    assertThat(lists.getObject(2)).isEqualTo(List.of(3, 4, 5));

    BinaryVector keys =
        new BinaryVector(DataType.string(), 2, "ab".getBytes(), new int[] {0, 1, 2}, null);
    LongVector values =
        new LongVector(DataType.int64(), 2, new long[] {10, 20}, new boolean[] {false, true});
    MapVector maps =
        new MapVector(
            DataType.map(Field.of("key", DataType.string()), Field.of("value", DataType.int64())),
            1,
            new int[] {0, 2},
            keys,
            values,
            null);
    assertThat((List<?>) maps.getObject(0)).hasSize(2).first().isEqualTo(Map.entry("a", 10L));

    StructVector struct =
        new StructVector(
            DataType.struct(
                List.of(Field.of("k", DataType.string()), Field.of("v", DataType.int64()))),
            2,
            List.of(keys, values),
            null);
    assertThat(struct.getObject(1)).isEqualTo(java.util.Arrays.asList("b", null));
  }

  @Test
  void decimalsUseLongsUpTo18DigitsAndBytesAbove() {
    DecimalVector small =
        DecimalVector.ofLongs(DataType.decimal(10, 2), 1, new long[] {12345}, null);
    assertThat(small.getObject(0)).isEqualTo(new BigDecimal("123.45"));

    byte[] big = new BigInteger("-123456789012345678901234567890").toByteArray();
    DecimalVector wide =
        DecimalVector.ofBytes(DataType.decimal(38, 5), 1, big, new int[] {0, big.length}, null);
    assertThat(wide.getDecimal(0)).isEqualTo(new BigDecimal("-1234567890123456789012345.67890"));
    assertThatThrownBy(() -> DecimalVector.ofLongs(DataType.decimal(30, 0), 0, new long[0], null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aVectorRejectsTheWrongKindAndShortArrays() {
    assertThatThrownBy(() -> new IntVector(DataType.int64(), 1, new int[1], null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("int64");
    assertThatThrownBy(() -> new LongVector(DataType.int64(), 3, new long[2], null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fewer than size");
    assertThatThrownBy(
            () -> new BinaryVector(DataType.binary(), 1, new byte[1], new int[] {0, 5}, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("past");
  }

  @Test
  void typesCompareByValueAndPrintReadably() {
    assertThat(DataType.decimal(9, 2)).isEqualTo(DataType.decimal(9, 2));
    assertThat(DataType.timestamp(DataType.TimeUnit.MICROS, true).toString())
        .isEqualTo("timestamp(micros, utc)");
    assertThat(DataType.list(Field.of("element", DataType.string())).toString())
        .isEqualTo("list<element: string>");
    assertThatThrownBy(() -> DataType.decimal(5, 6)).isInstanceOf(IllegalArgumentException.class);
  }
}
