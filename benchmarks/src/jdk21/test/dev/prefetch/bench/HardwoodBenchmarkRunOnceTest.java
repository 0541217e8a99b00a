package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs the Hardwood benchmark once per parameter set on tiny data (Java 21+ builds only). */
@Timeout(300)
@ExtendWith(TinyBenchData.class)
class HardwoodBenchmarkRunOnceTest {

  @Test
  void everyHardwoodBenchmarkRunsOnceAndReadsTheLibrarysChecksum() throws Exception {
    for (String storage : new String[] {"local", "remote"}) {
      for (int threads : new int[] {1, 2, 4, 8}) {
        HardwoodBenchmark b = new HardwoodBenchmark();
        b.threads = threads;
        b.storage = storage;
        b.setUp();
        try {
          assertThat(b.scan()).hasSize(16);
        } finally {
          b.tearDown();
        }
      }
    }
  }
}
