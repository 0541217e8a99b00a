package dev.prefetch.orc.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.RowRange;
import dev.prefetch.spi.ReadRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangePlannerTest {

  private static final long[] ROWS = {5000, 5000, 1200};
  private static final long[] BYTES = {500_000, 500_000, 120_000};
  private static final boolean[] ALL = {true, true, true};

  /** The ranges of two strides a stripe of five strides shares evenly (and the last stripe's). */
  private static final String[] TWO_STRIDE_RANGES = {
    "stripe 0 strides 0..0",
    "stripe 0 strides 1..2",
    "stripe 0 strides 3..4",
    "stripe 1 strides 0..0",
    "stripe 1 strides 1..2",
    "stripe 1 strides 3..4",
    "stripe 2 strides 0..1"
  };

  @Test
  void rangesTakeTheStridesNearestTheNaturalReadSizeAndShareAStripeEvenly() {
    // 100 KB a stride; 200 KB ranges take 2 strides; stripe 0's 5 strides make 3 ranges.
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, BYTES, ALL, 1000, 200_000, Long.MAX_VALUE, null).ranges();
    assertThat(ranges).extracting(r -> r.locator().toString()).containsExactly(TWO_STRIDE_RANGES);
    assertThat(ranges)
        .extracting(ReadRange::estimatedBytes)
        .containsExactly(100_000L, 200_000L, 200_000L, 100_000L, 200_000L, 200_000L, 120_000L);
    assertCoversInOrder(ranges, 0, 11_200);
    assertThat(ranges.get(6).firstRow()).isEqualTo(10_000);
    assertThat(ranges.get(6).rowCount()).isEqualTo(1200);
  }

  @Test
  void rangesNeverCrossAStripeEvenWhenTheNaturalSizeExceedsIt() {
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, BYTES, ALL, 1000, 1L << 30, Long.MAX_VALUE, null).ranges();
    assertThat(ranges)
        .extracting(r -> r.locator().toString())
        .containsExactly("stripe 0 strides 0..4", "stripe 1 strides 0..4", "stripe 2 strides 0..1");
    assertCoversInOrder(ranges, 0, 11_200);
  }

  @Test
  void rangesHoldNoMoreRowsThanAllowedButAtLeastOneStride() {
    // The natural size would make whole stripes; at most 2,000 rows makes 2 + 1 strides.
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, BYTES, ALL, 1000, 1L << 30, 2000, null).ranges();
    assertThat(ranges).extracting(r -> r.locator().toString()).containsExactly(TWO_STRIDE_RANGES);
    assertCoversInOrder(ranges, 0, 11_200);
    assertThat(RangePlanner.plan(ROWS, BYTES, ALL, 1000, 1L << 30, 10, null).ranges()).hasSize(12);
  }

  @Test
  void fileWithoutRowIndexHasWholeStripeRanges() {
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, BYTES, ALL, 0, 1, Long.MAX_VALUE, null).ranges();
    assertThat(ranges)
        .extracting(r -> r.locator().toString())
        .containsExactly("stripe 0", "stripe 1", "stripe 2");
    assertCoversInOrder(ranges, 0, 11_200);
  }

  @Test
  void strideOfEmptyColumnsStillMakesOneRangePerStripe() {
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, new long[3], ALL, 1000, 1, Long.MAX_VALUE, null).ranges();
    assertThat(ranges).hasSize(3);
  }

  @Test
  void droppedStripesHaveNoRangesAndRowNumbersStayFileRows() {
    List<ReadRange> ranges =
        RangePlanner.plan(
                ROWS,
                BYTES,
                new boolean[] {false, true, false},
                1000,
                1L << 30,
                Long.MAX_VALUE,
                null)
            .ranges();
    assertThat(ranges).hasSize(1);
    assertThat(ranges.get(0).firstRow()).isEqualTo(5000);
    assertThat(ranges.get(0).index()).isZero();
  }

  @Test
  void rowSelectionClipsRangesAndKeepsTheStridesTheyTouch() {
    List<RowRange> selection = List.of(new RowRange(1500, 2500), new RowRange(4990, 5010));
    List<ReadRange> ranges =
        RangePlanner.plan(ROWS, BYTES, ALL, 1000, 200_000, Long.MAX_VALUE, selection).ranges();
    assertThat(ranges)
        .extracting(ReadRange::describe)
        .containsExactly(
            "range 0 (rows 1500..2500, stripe 0 strides 1..2)",
            "range 1 (rows 4990..5000, stripe 0 strides 4..4)",
            "range 2 (rows 5000..5010, stripe 1 strides 0..0)");
    assertThat(ranges.get(0).estimatedBytes()).isEqualTo(100_000);
  }

  private static void assertCoversInOrder(List<ReadRange> ranges, long first, long end) {
    long next = first;
    for (int i = 0; i < ranges.size(); i++) {
      assertThat(ranges.get(i).index()).isEqualTo(i);
      assertThat(ranges.get(i).firstRow()).isEqualTo(next);
      next = ranges.get(i).endRow();
    }
    assertThat(next).isEqualTo(end);
  }
}
