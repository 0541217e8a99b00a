package dev.prefetch.parquet.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.RowRange;
import dev.prefetch.spi.RangeBudget;
import java.util.List;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndexBuilder;
import org.junit.jupiter.api.Test;

class RowGroupSlicerTest {

  private static final long MIB = 1L << 20;

  /** Pages of the given row counts and compressed sizes, back to back from offset 4. */
  private static OffsetIndex pages(long[] rows, int[] sizes) {
    OffsetIndexBuilder builder = OffsetIndexBuilder.getBuilder();
    long offset = 4;
    long firstRow = 0;
    for (int p = 0; p < rows.length; p++) {
      builder.add(offset, sizes[p], firstRow);
      offset += sizes[p];
      firstRow += rows[p];
    }
    return builder.build();
  }

  private static OffsetIndex evenPages(int count, long rowsEach, int bytesEach) {
    long[] rows = new long[count];
    int[] sizes = new int[count];
    java.util.Arrays.fill(rows, rowsEach);
    java.util.Arrays.fill(sizes, bytesEach);
    return pages(rows, sizes);
  }

  @Test
  void cutsFallOnPageStartsAtEvenShareOfTheBytes() {
    OffsetIndex index = evenPages(8, 100, 1000);
    assertThat(RowGroupSlicer.pageCuts(index, 800, 4)).containsExactly(200L, 400L, 600L);
    assertThat(RowGroupSlicer.pageCuts(index, 800, 2)).containsExactly(400L);
  }

  @Test
  void cutsFollowBytesNotRowsWhenPagesDifferInSize() {
    // The first page holds half the bytes: the middle cut falls right after it.
    OffsetIndex index = pages(new long[] {100, 100, 100, 100}, new int[] {3000, 1000, 1000, 1000});
    assertThat(RowGroupSlicer.pageCuts(index, 400, 2)).containsExactly(100L);
  }

  @Test
  void fewerPagesThanPiecesGiveOneCutPerPageStartAtMost() {
    OffsetIndex index = evenPages(3, 100, 1000);
    assertThat(RowGroupSlicer.pageCuts(index, 300, 10)).containsExactly(100L, 200L);
  }

  @Test
  void onePageNoIndexOrOnePieceCutsNothing() {
    assertThat(RowGroupSlicer.pageCuts(evenPages(1, 500, 1000), 500, 4)).isEmpty();
    assertThat(RowGroupSlicer.pageCuts(null, 500, 4)).isEmpty();
    assertThat(RowGroupSlicer.pageCuts(evenPages(8, 100, 1000), 800, 1)).isEmpty();
  }

  @Test
  void pageStartsAtOrPastTheRowGroupEndAreNoCuts() {
    // An index that claims pages beyond the row count (a corrupt or trimmed one) cuts only inside.
    OffsetIndex index = evenPages(4, 100, 1000);
    assertThat(RowGroupSlicer.pageCuts(index, 150, 4)).containsExactly(100L);
  }

  @Test
  void smallRowGroupsAreReadWhole() {
    RangeBudget budget = new RangeBudget(8, 10);
    assertThat(RowGroupSlicer.pieces(1_000_000, 2 * MIB, 1, budget)).isEqualTo(1);
  }

  @Test
  void fewerRowGroupsThanProducersShareTheirSlicesAmongThem() {
    RangeBudget budget = new RangeBudget(4, RangeBudget.UNBOUNDED);
    // 4 producers x 4 slices over 2 row groups: 8 each, capped by 1 MiB slices.
    assertThat(RowGroupSlicer.pieces(100_000, 100 * MIB, 2, budget)).isEqualTo(8);
    assertThat(RowGroupSlicer.pieces(100_000, 5 * MIB, 2, budget)).isEqualTo(5);
    // as many row groups as producers: no slicing for balance
    assertThat(RowGroupSlicer.pieces(100_000, 100 * MIB, 4, budget)).isEqualTo(1);
  }

  @Test
  void rowGroupsLongerThanTheLookAheadAreCutToIt() {
    RangeBudget budget = new RangeBudget(2, 1000);
    assertThat(RowGroupSlicer.pieces(10_000, 100 * MIB, 10, budget)).isEqualTo(10);
    assertThat(RowGroupSlicer.pieces(1000, 100 * MIB, 10, budget)).isEqualTo(1);
    assertThat(RowGroupSlicer.pieces(10_000, 3 * MIB, 10, budget)).isEqualTo(3);
  }

  @Test
  void theSingleReaderBudgetNeverSlices() {
    assertThat(RowGroupSlicer.pieces(1L << 40, 1L << 40, 1, RangeBudget.SINGLE_READER))
        .isEqualTo(1);
    assertThat(RowGroupSlicer.maySlice(new long[] {1L << 40}, RangeBudget.SINGLE_READER)).isFalse();
  }

  @Test
  void slicingMayPayWithFewRowGroupsOrLongOnes() {
    RangeBudget budget = new RangeBudget(4, 1000);
    assertThat(RowGroupSlicer.maySlice(new long[] {10, 10, 10}, budget)).isTrue();
    assertThat(RowGroupSlicer.maySlice(new long[] {10, 10, 10, 10}, budget)).isFalse();
    assertThat(RowGroupSlicer.maySlice(new long[] {10, 10, 1001, 10}, budget)).isTrue();
  }

  @Test
  void rowRangesBecomeSegmentsOfTheRowGroup() {
    List<RowRange> selected = List.of(new RowRange(50, 120), new RowRange(180, 250));
    // row group of file rows [100, 200)
    assertThat(RowGroupSlicer.segments(selected, 100, 100))
        .containsExactly(new long[] {0, 20}, new long[] {80, 100});
    assertThat(RowGroupSlicer.segments(null, 100, 100)).containsExactly(new long[] {0, 100});
    assertThat(RowGroupSlicer.segments(List.of(new RowRange(0, 100)), 100, 100)).isEmpty();
  }

  @Test
  void intersectKeepsOnlyThePageRowsInsideTheSlice() {
    long[] pageRows = {0, 10, 40, 60, 90, 100};
    assertThat(RowGroupSlicer.intersect(5, 50, pageRows)).containsExactly(5, 10, 40, 50);
    assertThat(RowGroupSlicer.intersect(10, 40, pageRows)).isEmpty();
    assertThat(RowGroupSlicer.intersect(0, 100, null)).containsExactly(0, 100);
  }

  @Test
  void slicesPartitionEachSegmentAndDropWhatThePagesDrop() {
    long[] cuts = {100, 200, 300};
    List<long[]> whole = RowGroupSlicer.ranges(List.of(new long[] {0, 400}), cuts, null);
    assertThat(whole)
        .containsExactly(
            new long[] {0, 100},
            new long[] {100, 200},
            new long[] {200, 300},
            new long[] {300, 400});

    // A segment inside one slice is not cut; one spanning a cut is cut there.
    List<long[]> segmented =
        RowGroupSlicer.ranges(List.of(new long[] {120, 180}, new long[] {250, 350}), cuts, null);
    assertThat(segmented)
        .containsExactly(new long[] {120, 180}, new long[] {250, 300}, new long[] {300, 350});

    // The column indexes keep rows [150, 160) and [390, 400): slices without them are dropped.
    List<long[]> pruned =
        RowGroupSlicer.ranges(List.of(new long[] {0, 400}), cuts, new long[] {150, 160, 390, 400});
    assertThat(pruned).containsExactly(new long[] {150, 160}, new long[] {390, 400});
  }

  @Test
  void withoutCutsEachSegmentIsOneRange() {
    List<long[]> ranges =
        RowGroupSlicer.ranges(
            List.of(new long[] {0, 10}, new long[] {20, 30}), new long[0], new long[] {5, 25});
    assertThat(ranges).containsExactly(new long[] {5, 10}, new long[] {20, 25});
  }
}
