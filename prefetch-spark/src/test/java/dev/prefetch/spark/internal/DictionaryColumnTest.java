package dev.prefetch.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.ListVector;
import dev.prefetch.batch.StructVector;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Dictionary vectors read through Spark's API as the plain vectors of the same rows do. */
class DictionaryColumnTest {

  /** Entries "", "abc", "\u00e9\u4e2d\ud83d\ude00" (2 + 3 + 4 UTF-8 bytes), "x". */
  private static final String[] ENTRIES = {"", "abc", "\u00e9\u4e2d\ud83d\ude00", "x"};

  private static BinaryVector dictionary(DataType type) {
    byte[][] values = new byte[ENTRIES.length][];
    int total = 0;
    for (int i = 0; i < ENTRIES.length; i++) {
      values[i] = ENTRIES[i].getBytes(StandardCharsets.UTF_8);
      total += values[i].length;
    }
    byte[] data = new byte[total];
    int[] offsets = new int[ENTRIES.length + 1];
    for (int i = 0; i < ENTRIES.length; i++) {
      System.arraycopy(values[i], 0, data, offsets[i], values[i].length);
      offsets[i + 1] = offsets[i] + values[i].length;
    }
    return new BinaryVector(type, ENTRIES.length, data, offsets, null);
  }

  @Test
  void stringsAreViewsOfTheirDictionaryEntryAndNullsComeFromTheMask() {
    BinaryVector dictionary = dictionary(DataType.string());
    // Row 2 is null and its id slot holds garbage outside the dictionary.
    DictionaryVector vector =
        new DictionaryVector(
            5,
            new int[] {2, 0, 99, 1, 2},
            dictionary,
            new boolean[] {false, false, true, false, false});
    ColumnVector column = SparkColumns.wrap(vector, DataTypes.StringType);

    assertThat(column).isInstanceOf(PrimitiveColumns.DictionaryColumn.class);
    assertThat(column.getUTF8String(0).toString()).isEqualTo("\u00e9\u4e2d\ud83d\ude00");
    assertThat(column.getUTF8String(0).numChars()).isEqualTo(3);
    assertThat(column.getUTF8String(1)).isEqualTo(UTF8String.EMPTY_UTF8);
    assertThat(column.getUTF8String(1).numBytes()).isZero();
    assertThat(column.isNullAt(2)).isTrue();
    assertThat(column.getUTF8String(2)).isNull();
    assertThat(column.getUTF8String(3).toString()).isEqualTo("abc");
    assertThat(column.hasNull()).isTrue();
    assertThat(column.numNulls()).isEqualTo(1);

    UTF8String first = column.getUTF8String(0);
    UTF8String last = column.getUTF8String(4);
    assertThat(first.getBaseObject()).isSameAs(dictionary.data());
    assertThat(first.getBaseOffset())
        .isEqualTo(Platform.BYTE_ARRAY_OFFSET + (long) dictionary.start(2));
    assertThat(last.getBaseObject()).isSameAs(first.getBaseObject());
    assertThat(last.getBaseOffset()).isEqualTo(first.getBaseOffset());
  }

  @Test
  void twoBatchesSharingOneDictionaryEachReadTheirOwnIdsFromIt() {
    BinaryVector dictionary = dictionary(DataType.string());
    DictionaryVector firstBatch = new DictionaryVector(3, new int[] {3, 1, 0}, dictionary, null);
    DictionaryVector secondBatch =
        new DictionaryVector(2, new int[] {1, 3, 7}, dictionary, new boolean[] {false, false});
    ColumnVector first = SparkColumns.wrap(firstBatch, DataTypes.StringType);
    ColumnVector second = SparkColumns.wrap(secondBatch, DataTypes.StringType);

    assertThat(strings(first, 3)).containsExactly("x", "abc", "");
    assertThat(strings(second, 2)).containsExactly("abc", "x");
    assertThat(first.hasNull()).isFalse();
    assertThat(second.hasNull()).isFalse();
    assertThat(second.numNulls()).isZero();
    assertThat(first.getUTF8String(1).getBaseObject())
        .isSameAs(second.getUTF8String(0).getBaseObject())
        .isSameAs(dictionary.data());
  }

  @Test
  void binaryValuesAreFreshCopiesOfTheirEntry() {
    BinaryVector dictionary = dictionary(DataType.binary());
    DictionaryVector vector =
        new DictionaryVector(
            4, new int[] {1, 1, 0, -5}, dictionary, new boolean[] {false, false, false, true});
    ColumnVector column = SparkColumns.wrap(vector, DataTypes.BinaryType);

    byte[] one = column.getBinary(0);
    byte[] two = column.getBinary(1);
    assertThat(one).containsExactly('a', 'b', 'c');
    assertThat(two).containsExactly('a', 'b', 'c');
    assertThat(one).isNotSameAs(two).isNotSameAs(dictionary.data());
    one[0] = 'z';
    assertThat(column.getBinary(1)).containsExactly('a', 'b', 'c');
    assertThat(column.getBinary(2)).isEmpty();
    assertThat(column.getBinary(3)).isNull();
  }

  @Test
  void fixedWidthBinaryAsStringReadsLikeItsMaterializedVector() {
    byte[] data = {1, 2, 3, (byte) 0xff, 0, 'q'};
    BinaryVector dictionary =
        new BinaryVector(DataType.fixedBinary(2), 3, data, new int[] {0, 2, 4, 6}, null);
    DictionaryVector vector =
        new DictionaryVector(
            5,
            new int[] {2, 0, 0, 1, 2},
            dictionary,
            new boolean[] {false, true, false, false, false});
    ColumnVector dictionaryColumn = SparkColumns.wrap(vector, DataTypes.BinaryType);
    ColumnVector plainColumn = SparkColumns.wrap(vector.materialize(), DataTypes.BinaryType);
    assertThat(plainColumn).isInstanceOf(PrimitiveColumns.BinaryColumn.class);
    for (int i = 0; i < 5; i++) {
      assertThat(dictionaryColumn.isNullAt(i)).isEqualTo(plainColumn.isNullAt(i));
      assertThat(dictionaryColumn.getBinary(i)).isEqualTo(plainColumn.getBinary(i));
    }
    assertThat(dictionaryColumn.numNulls()).isEqualTo(1);
  }

  @Test
  void dictionaryVectorsInsideListsAndStructsAreWrappedByTheirClass() {
    BinaryVector dictionary = dictionary(DataType.string());
    DictionaryVector elements =
        new DictionaryVector(
            4, new int[] {1, 42, 2, 0}, dictionary, new boolean[] {false, true, false, false});
    DataType listType = DataType.list(Field.of("element", DataType.string()));
    ListVector lists = new ListVector(listType, 2, new int[] {0, 3, 4}, elements, null);
    ColumnVector listColumn =
        SparkColumns.wrap(lists, DataTypes.createArrayType(DataTypes.StringType));
    ColumnarArray firstList = listColumn.getArray(0);
    assertThat(firstList.numElements()).isEqualTo(3);
    assertThat(firstList.getUTF8String(0).toString()).isEqualTo("abc");
    assertThat(firstList.isNullAt(1)).isTrue();
    assertThat(firstList.getUTF8String(2).toString()).isEqualTo("\u00e9\u4e2d\ud83d\ude00");
    assertThat(listColumn.getArray(1).getUTF8String(0).toString()).isEmpty();

    DataType structType = DataType.struct(List.of(Field.of("name", DataType.string())));
    DictionaryVector names = new DictionaryVector(2, new int[] {3, 1}, dictionary, null);
    StructVector structs = new StructVector(structType, 2, List.of(names), null);
    ColumnVector structColumn =
        SparkColumns.wrap(
            structs,
            DataTypes.createStructType(
                List.of(DataTypes.createStructField("name", DataTypes.StringType, true))));
    assertThat(structColumn.getChild(0)).isInstanceOf(PrimitiveColumns.DictionaryColumn.class);
    assertThat(structColumn.getStruct(1).getUTF8String(0).toString()).isEqualTo("abc");
  }

  private static String[] strings(ColumnVector column, int rows) {
    String[] values = new String[rows];
    for (int i = 0; i < rows; i++) {
      values[i] = column.getUTF8String(i).toString();
    }
    return values;
  }
}
