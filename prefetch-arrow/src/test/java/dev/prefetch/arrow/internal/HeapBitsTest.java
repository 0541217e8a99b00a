package dev.prefetch.arrow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class HeapBitsTest {

  private static long oneByOne(boolean[] values, int base, int n) {
    long bits = 0;
    for (int k = 0; k < n; k++) {
      if (values[base + k]) {
        bits |= 1L << k;
      }
    }
    return bits;
  }

  @Test
  void aWordHoldsValueKAtBitKForEveryLengthAndStart() {
    Random random = new Random(5);
    boolean[] values = new boolean[300];
    for (int round = 0; round < 50; round++) {
      int density = 1 + random.nextInt(4);
      for (int i = 0; i < values.length; i++) {
        values[i] = random.nextInt(density + 1) == 0;
      }
      for (int base = 0; base < 80; base += 1 + random.nextInt(9)) {
        for (int n = 0; n <= 64; n++) {
          assertThat(HeapBits.word(values, base, n))
              .as("base %d, %d values", base, n)
              .isEqualTo(oneByOne(values, base, n));
        }
      }
    }
  }

  @Test
  void allTrueAndAllFalseWordsAreAllOnesAndZero() {
    boolean[] on = new boolean[64];
    java.util.Arrays.fill(on, true);
    assertThat(HeapBits.word(on, 0, 64)).isEqualTo(-1L);
    assertThat(HeapBits.word(new boolean[64], 0, 64)).isZero();
  }

  @Test
  void anArrayShorterThanTheRowsIsRefusedBeforeAnyRead() {
    assertThatThrownBy(() -> HeapBits.checkLength(new boolean[10], 11, "null mask"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("null mask holds 10 values, fewer than the 11 rows");
  }
}
