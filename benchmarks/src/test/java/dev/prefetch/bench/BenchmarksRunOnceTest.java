package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.spi.FileFormat;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs every benchmark method once, after its real setup (with its correctness check), on a tiny
 * data set, so that none can rot between benchmark runs.
 */
@Timeout(300)
@ExtendWith(TinyBenchData.class)
class BenchmarksRunOnceTest {

  /** Whether our reader has a format registered for {@code name} on this class path. */
  static boolean formatAvailable(String name) {
    for (FileFormat f : ServiceLoader.load(FileFormat.class)) {
      if (f.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void everyScanBenchmarkRunsOnceAfterReadingTheLibrarysChecksumAndTimesTheSameSums()
      throws Exception {
    String[] readers = {"single", "prefetch-1", "prefetch-2", "prefetch-4", "library"};
    int runs = 0;
    int expected = 0;
    for (String format : new String[] {"parquet", "orc"}) {
      expected += 2 * (formatAvailable(format) ? readers.length : 1);
      java.util.Set<String> sums = new java.util.HashSet<>();
      for (String storage : new String[] {"local", "remote"}) {
        for (String reader : readers) {
          if (!reader.equals("library") && !formatAvailable(format)) {
            continue;
          }
          ScanBenchmark b = new ScanBenchmark();
          b.format = format;
          b.storage = storage;
          b.reader = reader;
          b.setUp();
          try {
            String value = b.scan();
            assertThat(value).hasSize(16);
            sums.add(value);
          } finally {
            b.tearDown();
          }
          runs++;
        }
      }
      // our readers and the library's, timed with the light consumer, read the same values
      assertThat(sums).as(format).hasSize(1);
    }
    // Both formats are on the class path through the test kit.
    assertThat(runs).isEqualTo(expected).isEqualTo(20);
  }

  @Test
  void arrowScanBenchmarkRunsBothTargetsOnce() throws Exception {
    ArrowScanBenchmark b = new ArrowScanBenchmark();
    b.producers = 2;
    b.setUp();
    try {
      assertThat(b.scan()).isEqualTo(TinyBenchData.ROWS);
      assertThat(b.arrow()).isEqualTo(TinyBenchData.ROWS);
    } finally {
      b.tearDown();
    }
  }

  @Test
  void remoteScanBenchmarkRunsEightProducersOnceForEachFormat() throws Exception {
    for (String format : new String[] {"parquet", "orc"}) {
      RemoteScanBenchmark b = new RemoteScanBenchmark();
      b.format = format;
      b.reader = "prefetch-8";
      b.setUp();
      try {
        assertThat(b.scan()).hasSize(16);
      } finally {
        b.tearDown();
      }
    }
  }

  @Test
  void duckDbBenchmarkCountsEveryRowWithOneAndTwoThreads() throws Exception {
    for (int threads : new int[] {1, 2}) {
      DuckDbBenchmark b = new DuckDbBenchmark();
      b.threads = threads;
      b.setUp();
      try {
        assertThat(b.scan()).startsWith(TinyBenchData.ROWS + ",");
      } finally {
        b.tearDown();
      }
    }
  }
}
