package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Runs the Hardwood benchmark once per parameter set on tiny data (Java 21+ builds only). */
@Timeout(300)
class HardwoodBenchmarkRunOnceTest {

  @TempDir
  static Path dir;

  @BeforeAll
  static void tinyData() {
    System.setProperty(BenchData.DIR_PROPERTY, dir.toString());
    System.setProperty(BenchData.ROWS_PROPERTY, "30000");
  }

  @AfterAll
  static void restore() {
    System.clearProperty(BenchData.DIR_PROPERTY);
    System.clearProperty(BenchData.ROWS_PROPERTY);
  }

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
