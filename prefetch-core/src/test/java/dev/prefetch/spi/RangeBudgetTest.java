package dev.prefetch.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.ReadOptions;
import org.junit.jupiter.api.Test;

class RangeBudgetTest {

  @Test
  void prefetchingProducersMayWorkAheadTheirQueueOfBatches() {
    RangeBudget budget =
        RangeBudget.of(
            ReadOptions.builder().parallelism(4).queueCapacity(16).batchSize(1000).build());
    assertThat(budget.producers()).isEqualTo(4);
    assertThat(budget.lookAheadRows()).isEqualTo(16_000);
    assertThat(budget.bounded()).isTrue();
  }

  @Test
  void theFilesOfAManyFileReadShareTheProducersAndKeepTheLookAhead() {
    ReadOptions options =
        ReadOptions.builder().parallelism(4).queueCapacity(16).batchSize(1000).build();
    assertThat(RangeBudget.of(options, 1)).isEqualTo(RangeBudget.of(options));
    assertThat(RangeBudget.of(options, 2)).isEqualTo(new RangeBudget(2, 16_000));
    assertThat(RangeBudget.of(options, 3)).isEqualTo(new RangeBudget(2, 16_000));
    assertThat(RangeBudget.of(options, 200)).isEqualTo(new RangeBudget(1, 16_000));
    assertThat(RangeBudget.of(ReadOptions.builder().prefetchEnabled(false).build(), 200))
        .isEqualTo(RangeBudget.SINGLE_READER);
    assertThatThrownBy(() -> RangeBudget.of(options, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fileCount");
  }

  @Test
  void theSingleReaderPathHasOneProducerAndNoLengthBound() {
    RangeBudget budget =
        RangeBudget.of(ReadOptions.builder().parallelism(8).prefetchEnabled(false).build());
    assertThat(budget).isEqualTo(RangeBudget.SINGLE_READER);
    assertThat(budget.producers()).isEqualTo(1);
    assertThat(budget.bounded()).isFalse();
    assertThat(budget.longerThanLookAhead(Long.MAX_VALUE - 1)).isFalse();
  }

  @Test
  void oneProducerHasNobodyToKeepBusyAndSoNoLengthBound() {
    RangeBudget budget =
        RangeBudget.of(ReadOptions.builder().parallelism(1).queueCapacity(1).batchSize(1).build());
    assertThat(budget.producers()).isEqualTo(1);
    assertThat(budget.lookAheadRows()).isEqualTo(RangeBudget.UNBOUNDED);
  }

  @Test
  void theLargestQueueOfTheLargestBatchesDoesNotOverflow() {
    RangeBudget budget =
        RangeBudget.of(
            ReadOptions.builder()
                .parallelism(2)
                .queueCapacity(ReadOptions.MAX_QUEUE_CAPACITY_BATCHES)
                .batchSize(Integer.MAX_VALUE - 8)
                .build());
    assertThat(budget.lookAheadRows())
        .isEqualTo((long) ReadOptions.MAX_QUEUE_CAPACITY_BATCHES * (Integer.MAX_VALUE - 8));
  }

  @Test
  void minRangesForRowsRoundsUpToTheLookAhead() {
    RangeBudget budget = new RangeBudget(2, 100);
    assertThat(budget.minRangesFor(0)).isEqualTo(1);
    assertThat(budget.minRangesFor(100)).isEqualTo(1);
    assertThat(budget.minRangesFor(101)).isEqualTo(2);
    assertThat(budget.minRangesFor(1000)).isEqualTo(10);
    assertThat(budget.longerThanLookAhead(100)).isFalse();
    assertThat(budget.longerThanLookAhead(101)).isTrue();
    assertThat(RangeBudget.SINGLE_READER.minRangesFor(Long.MAX_VALUE)).isEqualTo(1);
  }

  @Test
  void aBudgetWithoutProducersOrLookAheadIsRefused() {
    assertThatThrownBy(() -> new RangeBudget(0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("producers");
    assertThatThrownBy(() -> new RangeBudget(2, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lookAheadRows");
  }
}
