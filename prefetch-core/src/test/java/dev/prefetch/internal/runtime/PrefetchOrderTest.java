package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.internal.runtime.Scans.Seen;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(120)
@ExtendWith(NothingLeaks.class)
class PrefetchOrderTest {

  /**
   * Random files (range counts and sizes, per-batch delays), random parallelism 1..8, queue
   * capacity 1..8 and batch size: the prefetching read equals the single read batch for batch.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
  void prefetchingReadEqualsSingleReadForRandomShapes(long seed) throws Exception {
    Random random = new Random(seed);
    for (int round = 0; round < 10; round++) {
      int fileCount = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1;
      List<DataFile> files = new ArrayList<>();
      long expectedRows = 0;
      for (int f = 0; f < fileCount; f++) {
        int ranges = random.nextInt(25);
        List<Integer> rows = new ArrayList<>();
        for (int r = 0; r < ranges; r++) {
          int size = random.nextInt(8) == 0 ? 0 : random.nextInt(600);
          rows.add(size);
          expectedRows += size;
        }
        SyntheticFormat.Spec spec =
            SyntheticFormat.Spec.of(rows)
                .withDelays(random.nextInt(5) == 0 ? 100 : 0, seed * 31 + round)
                .withPayload(random.nextInt(4) * 8);
        files.add(SyntheticFormat.register("order-" + seed + "-" + round + "-" + f, spec));
      }
      int batchSize = 1 + random.nextInt(random.nextBoolean() ? 700 : 40);
      int parallelism = 1 + random.nextInt(8);
      int capacity = 1 + random.nextInt(8);
      List<Seen> expected = Scans.readAll(files, Scans.single(batchSize));
      List<Seen> actual =
          Scans.readAll(files, Scans.prefetching(parallelism, capacity, batchSize).build());

      assertThat(expected.stream().mapToLong(Seen::rowCount).sum()).isEqualTo(expectedRows);
      assertSameBatches(
          actual, expected, "p=" + parallelism + " q=" + capacity + " batch=" + batchSize);
    }
  }

  @Test
  void rowsComeInFileThenRowOrderAcrossManyFiles() throws Exception {
    List<DataFile> files = new ArrayList<>();
    for (int f = 0; f < 6; f++) {
      files.add(
          SyntheticFormat.register(
              "many-" + f, SyntheticFormat.Spec.of(List.of(100, 0, 250, 1)).withDelays(300, f)));
    }
    List<Seen> actual = Scans.readAll(files, Scans.prefetching(3, 2, 64).build());

    List<String> fileOrder = new ArrayList<>();
    long previousRow = -1;
    String previousFile = "";
    for (Seen seen : actual) {
      if (!seen.file().equals(previousFile)) {
        fileOrder.add(seen.file());
        previousFile = seen.file();
        previousRow = -1;
      }
      assertThat(seen.firstRow()).isGreaterThan(previousRow);
      previousRow = seen.firstRow();
    }
    assertThat(fileOrder)
        .containsExactly(
            "many-0.synth",
            "many-1.synth",
            "many-2.synth",
            "many-3.synth",
            "many-4.synth",
            "many-5.synth");
    assertSameBatches(actual, Scans.readAll(files, Scans.single(64)), "many files");
  }

  @Test
  void batchesNeverSpanTwoRanges() throws Exception {
    DataFile file =
        SyntheticFormat.register("aligned", SyntheticFormat.Spec.of(List.of(10, 33, 7, 64)));
    List<Seen> seen = Scans.readAll(List.of(file), Scans.prefetching(4, 2, 16).build());
    long[] boundaries = {0, 10, 43, 50, 114};
    for (Seen batch : seen) {
      for (int b = 1; b < boundaries.length; b++) {
        boolean crosses =
            batch.firstRow() < boundaries[b] && batch.firstRow() + batch.rowCount() > boundaries[b];
        assertThat(crosses)
            .as("batch at %d+%d crosses %d", batch.firstRow(), batch.rowCount(), boundaries[b])
            .isFalse();
      }
    }
  }

  static void assertSameBatches(List<Seen> actual, List<Seen> expected, String what) {
    assertThat(actual).as(what).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i).sameAs(expected.get(i)))
          .as("%s: batch %d is %s, expected %s", what, i, actual.get(i), expected.get(i))
          .isTrue();
    }
  }

  @Test
  void readOptionsFromPropertiesDriveTheRuntime() throws Exception {
    DataFile file = SyntheticFormat.register("props", SyntheticFormat.Spec.of(List.of(50, 50)));
    ReadOptions options =
        ReadOptions.fromProperties(
            java.util.Map.of(
                "prefetch.parallelism",
                "2",
                "prefetch.min-read-bytes",
                "0",
                "read.batch-size",
                "25"));
    List<Seen> seen = Scans.readAll(List.of(file), options);
    assertThat(seen).hasSize(4);
  }
}
