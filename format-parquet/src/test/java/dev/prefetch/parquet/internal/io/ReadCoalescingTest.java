package dev.prefetch.parquet.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.parquet.io.ParquetFileRange;
import org.junit.jupiter.api.Test;

/** The arithmetic that joins a vectored read's ranges into storage requests. */
class ReadCoalescingTest {

  private static ParquetFileRange range(long offset, int length) {
    return new ParquetFileRange(offset, length);
  }

  /** Each request as {@code [offset, length, ranges]}. */
  private static List<List<Long>> shape(List<ReadCoalescing.Request> requests) {
    return requests.stream()
        .map(r -> List.of(r.offset(), (long) r.length(), (long) r.ranges().size()))
        .toList();
  }

  @Test
  void rangesWhoseGapsAreAtMostTheThresholdBecomeOneRequestCoveringThemAll() {
    ReadCoalescing coalescing = new ReadCoalescing(100, 1 << 20);
    List<ReadCoalescing.Request> requests =
        coalescing.plan(List.of(range(0, 100), range(150, 100), range(300, 100)));
    assertThat(shape(requests)).containsExactly(List.of(0L, 400L, 3L));
    assertThat(requests.get(0).positionOf(requests.get(0).ranges().get(2))).isEqualTo(300);
  }

  @Test
  void aGapOneByteOverTheThresholdStartsANewRequest() {
    ReadCoalescing coalescing = new ReadCoalescing(100, 1 << 20);
    assertThat(shape(coalescing.plan(List.of(range(0, 500), range(601, 500)))))
        .containsExactly(List.of(0L, 500L, 1L), List.of(601L, 500L, 1L));
  }

  @Test
  void theSmallestGapsAreJoinedFirstWhileTheGapBytesStayWithinTheRangesOwnBytes() {
    ReadCoalescing coalescing = new ReadCoalescing(1_000, 1 << 20);
    // 60 bytes wanted; the gap of 10 is joined, the gap of 60 would read more than is left
    assertThat(shape(coalescing.plan(List.of(range(0, 20), range(80, 20), range(110, 20)))))
        .containsExactly(List.of(0L, 20L, 1L), List.of(80L, 50L, 2L));
    assertThat(shape(coalescing.plan(List.of(range(0, 10), range(100, 10)))))
        .as("a gap longer than both ranges")
        .hasSize(2);
  }

  @Test
  void rangesAreJoinedInFileOrderWhateverOrderTheyCameIn() {
    ReadCoalescing coalescing = new ReadCoalescing(10, 1 << 20);
    ParquetFileRange late = range(1_000, 5);
    ParquetFileRange early = range(0, 5);
    ParquetFileRange middle = range(10, 5);
    List<ReadCoalescing.Request> requests = coalescing.plan(List.of(late, middle, early));
    assertThat(shape(requests)).containsExactly(List.of(0L, 15L, 2L), List.of(1_000L, 5L, 1L));
    assertThat(requests.get(0).ranges()).containsExactly(early, middle);
  }

  @Test
  void aRequestNeverGrowsPastTheMaximumButALongerRangeIsARequestOfItsOwn() {
    ReadCoalescing coalescing = new ReadCoalescing(1_000, 100);
    assertThat(
            shape(
                coalescing.plan(
                    List.of(range(0, 40), range(50, 40), range(100, 40), range(150, 500)))))
        .containsExactly(List.of(0L, 90L, 2L), List.of(100L, 40L, 1L), List.of(150L, 500L, 1L));
  }

  @Test
  void withCoalescingOffEveryRangeIsItsOwnRequestEvenWhenAdjacent() {
    assertThat(ReadCoalescing.OFF.enabled()).isFalse();
    assertThat(shape(ReadCoalescing.OFF.plan(List.of(range(0, 10), range(10, 10)))))
        .containsExactly(List.of(0L, 10L, 1L), List.of(10L, 10L, 1L));
  }

  @Test
  void overlappingRangesShareOneRequestThatEndsAtTheFurthestEnd() {
    ReadCoalescing coalescing = new ReadCoalescing(1, 1 << 20);
    assertThat(shape(coalescing.plan(List.of(range(0, 100), range(20, 10)))))
        .containsExactly(List.of(0L, 100L, 2L));
  }

  @Test
  void aRangeWithANegativeOffsetOrLengthAndBadSettingsAreRefused() {
    ReadCoalescing coalescing = new ReadCoalescing(1, 1 << 20);
    assertThatThrownBy(() -> coalescing.plan(List.of(range(-1, 10))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> coalescing.plan(List.of(range(0, -10))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReadCoalescing(-1, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReadCoalescing(1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReadCoalescing(1, 1L << 31))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void noRangesAreNoRequests() {
    assertThat(new ReadCoalescing(1, 1).plan(List.of())).isEmpty();
  }
}
