package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DictionaryVectorTest {

  /** "AIR", "MAIL", "" as a dictionary. */
  private static BinaryVector dictionary() {
    return new BinaryVector(
        DataType.string(),
        3,
        "AIRMAIL".getBytes(StandardCharsets.UTF_8),
        new int[] {0, 3, 7, 7},
        null);
  }

  @Test
  void rowsReadTheirEntryOfTheDictionary() {
    DictionaryVector vector =
        new DictionaryVector(
            5,
            new int[] {1, 0, 99, 2, 1},
            dictionary(),
            new boolean[] {false, false, true, false, false});

    assertThat(vector.type()).isEqualTo(DataType.string());
    assertThat(vector.getString(0)).isEqualTo("MAIL");
    assertThat(vector.getBytes(1)).isEqualTo("AIR".getBytes(StandardCharsets.UTF_8));
    assertThat(vector.getObject(2)).isNull();
    assertThat(vector.getObject(3)).isEqualTo("");
    assertThat(vector.id(4)).isEqualTo(1);
  }

  @Test
  void materializeCopiesEachRowsBytesAndGivesNullsEmptySpans() {
    boolean[] nulls = {false, true, false, false};
    DictionaryVector vector =
        new DictionaryVector(4, new int[] {1, 7, 0, 1, 5}, dictionary(), nulls);

    BinaryVector plain = vector.materialize();

    assertThat(plain.size()).isEqualTo(4);
    assertThat(plain.offsets()).startsWith(0, 4, 4, 7, 11);
    assertThat(new String(plain.data(), 0, 11, StandardCharsets.UTF_8)).isEqualTo("MAILAIRMAIL");
    assertThat(List.of(plain.getObject(0), plain.getObject(2), plain.getObject(3)))
        .containsExactly("MAIL", "AIR", "MAIL");
    assertThat(plain.isNull(1)).isTrue();
    assertThat(plain.nullMask()).isNotSameAs(nulls); // the copy owns its own mask
  }

  @Test
  void theSharedDictionaryIsNotCountedInTheBatchsSize() {
    DictionaryVector vector = new DictionaryVector(2, new int[] {0, 1}, dictionary(), null);
    assertThat(vector.sizeInBytes()).isEqualTo(8);
  }

  @Test
  void aDictionaryOfNumbersOrWithNullsOrTooFewIdsIsRefused() {
    assertThatThrownBy(() -> new DictionaryVector(3, new int[2], dictionary(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ids has 2 entries");
    BinaryVector withNull =
        new BinaryVector(DataType.string(), 1, new byte[0], new int[] {0, 0}, new boolean[] {true});
    assertThatThrownBy(() -> new DictionaryVector(1, new int[1], withNull, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no nulls");
  }
}
