package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

class DictionaryValuesTest {

  /** A dictionary of three INT64 entries: 10, 20, 30. */
  private static Dictionary threeLongs() {
    byte[] page = new byte[24];
    for (int i = 0; i < 3; i++) {
      page[8 * i] = (byte) (10 * (i + 1));
    }
    return Dictionary.decode(page, 0, page.length, 3, PrimitiveTypeName.INT64, 0);
  }

  /** Ids as one bit-packed run of 8 values of 2 bits (bit width byte, header, packed bytes). */
  private static byte[] ids(int... eight) {
    byte[] data = new byte[1 + 1 + 2];
    data[0] = 2; // bit width
    data[1] = (1 << 1) | 1; // one group, bit-packed
    for (int i = 0; i < 8; i++) {
      data[2 + i / 4] |= (byte) (eight[i] << (2 * (i % 4)));
    }
    return data;
  }

  @Test
  void idsExpandToTheirEntries() {
    DictionaryValues values = new DictionaryValues(threeLongs(), ids(0, 1, 2, 2, 1, 0, 0, 1), 0, 4);
    long[] out = new long[8];

    values.read(out, 0, 8);

    assertThat(out).containsExactly(10, 20, 30, 30, 20, 10, 10, 20);
  }

  @Test
  void anIdPastTheDictionaryIsRejected() {
    DictionaryValues values = new DictionaryValues(threeLongs(), ids(0, 1, 2, 3, 1, 0, 0, 1), 0, 4);

    assertThatThrownBy(() -> values.read(new long[8], 0, 8))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("dictionary id 3 out of range for a dictionary of 3 entries");
  }
}
