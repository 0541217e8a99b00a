package dev.prefetch.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A scan over many files holds the plans (parsed metadata) of the files in flight only: a file's
 * plan is dropped once all its ranges are handed out and its last reader is closed.
 */
@Timeout(60)
@ExtendWith(NothingLeaks.class)
class PlanRetentionTest {

  private static final int FILES = 2_000;

  /** Reads {@value #FILES} files and returns the most plans open at once. */
  private static int mostPlansOpen(String tag, ReadOptions options) throws Exception {
    AtomicInteger most = new AtomicInteger();
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      String name = tag + "-" + i;
      files.add(SyntheticFormat.register(name, SyntheticFormat.Spec.of(List.of(5, 5))));
      SyntheticFormat.onPlan(
          name, () -> most.accumulateAndGet(SyntheticFormat.OPEN_PLANS.get() + 1, Math::max));
    }
    long rows = 0;
    try (BatchReader reader = Readers.open(files, options, ReadContext.defaults())) {
      for (var batch = reader.next(); batch != null; batch = reader.next()) {
        rows += batch.rowCount();
      }
    }
    assertThat(rows).isEqualTo(FILES * 10L);
    return most.get();
  }

  @Test
  void aPrefetchingScanOfManyFilesKeepsThePlansOfTheFilesInFlightOnly() throws Exception {
    int parallelism = 4;
    int most = mostPlansOpen("many-prefetch", Scans.prefetching(parallelism, 2, 5).build());
    // Each producer's current file and one planned ahead for each, the file being claimed and the
    // one being planned.
    assertThat(most).isLessThanOrEqualTo(2 * parallelism + 2);
  }

  @Test
  void theSingleReaderKeepsOnePlanAtATime() throws Exception {
    assertThat(mostPlansOpen("many-single", Scans.single(5))).isLessThanOrEqualTo(2);
  }
}
