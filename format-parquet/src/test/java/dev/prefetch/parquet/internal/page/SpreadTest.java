package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SpreadTest {

  @Test
  void denseValuesLandOnTheRowsThatAreNotNullInOrder() {
    Random random = new Random(3);
    for (int round = 0; round < 200; round++) {
      int at = random.nextInt(5);
      int count = 1 + random.nextInt(40);
      boolean[] nulls = new boolean[at + count];
      int defined = 0;
      for (int r = at; r < at + count; r++) {
        nulls[r] = random.nextInt(3) == 0;
        defined += nulls[r] ? 0 : 1;
      }
      long[] values = new long[at + count];
      for (int i = 0; i < defined; i++) {
        values[at + i] = 100 + i; // the dense values, in row order
      }

      Spread.values(values, at, count, defined, nulls);

      long next = 100;
      for (int r = at; r < at + count; r++) {
        if (!nulls[r]) {
          assertThat(values[r]).as("round %d row %d", round, r).isEqualTo(next++);
        }
      }
      assertThat(next).isEqualTo(100 + defined);
    }
  }
}
