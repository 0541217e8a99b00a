package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;

class PlainValuesTest {

  @Test
  void booleansReadInCallsOfAnySizeKeepTheirBitOrder() {
    Random random = new Random(5);
    boolean[] expected = new boolean[1000];
    byte[] packed = new byte[125];
    for (int i = 0; i < expected.length; i++) {
      expected[i] = random.nextBoolean();
      if (expected[i]) {
        packed[i / 8] |= (byte) (1 << (i % 8)); // PLAIN booleans: least significant bit first
      }
    }
    PlainValues values = new PlainValues(packed, 0, packed.length, PrimitiveTypeName.BOOLEAN, 0);
    boolean[] actual = new boolean[1000];

    int at = 0;
    while (at < actual.length) {
      int count = Math.min(actual.length - at, random.nextInt(20)); // mid-byte starts and ends
      values.read(actual, at, count);
      at += count;
    }

    assertThat(actual).containsExactly(expected);
  }
}
