package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openjdk.jmh.annotations.Param;

/**
 * Runs every Trino trial once after its real setup (Trino's checksum against the library's, and its
 * threads' sums against its ordered read), on tiny data (Java 25 builds only), and checks that
 * Trino's readers time the same sums as ours over the same rows and columns.
 */
@Timeout(300)
@ExtendWith(TinyBenchData.class)
class TrinoBenchmarksRunOnceTest {

  @BeforeAll
  static void smallLineitem() {
    System.setProperty(LineitemData.ROWS_PROPERTY, Long.toString(TinyBenchData.ROWS));
  }

  @AfterAll
  static void restore() {
    System.clearProperty(LineitemData.ROWS_PROPERTY);
  }

  @Test
  void everyTrinoScanTrialRunsOnceAndTimesOurSums() throws Exception {
    for (String format : new String[] {"parquet", "orc"}) {
      ScanBenchmark ours = new ScanBenchmark();
      ours.format = format;
      ours.storage = "local";
      ours.reader = "single";
      ours.setUp();
      String expected;
      try {
        expected = ours.scan();
      } finally {
        ours.tearDown();
      }
      for (String storage : new String[] {"local", "remote"}) {
        for (int threads : new int[] {1, 2}) {
          TrinoScanBenchmark b = new TrinoScanBenchmark();
          b.format = format;
          b.threads = threads;
          b.storage = storage;
          b.setUp();
          try {
            assertThat(b.scan()).as("%s %s %d", format, storage, threads).isEqualTo(expected);
          } finally {
            b.tearDown();
          }
        }
      }
    }
  }

  @Test
  void everyTrinoLineitemTrialRunsOnceAndTimesOurSums() throws Exception {
    String[] tables =
        TrinoLineitemBenchmark.class.getField("table").getAnnotation(Param.class).value();
    assertThat(tables)
        .containsExactlyInAnyOrder(
            LineitemBenchmark.class.getField("table").getAnnotation(Param.class).value());
    Map<String, String> ours = new HashMap<>();
    for (String table : tables) {
      LineitemBenchmark b = new LineitemBenchmark();
      b.table = table;
      b.reader = "prefetch-2";
      b.setUp();
      try {
        ours.put(table, b.scan());
      } finally {
        b.tearDown();
      }
    }
    for (String table : tables) {
      TrinoLineitemBenchmark b = new TrinoLineitemBenchmark();
      b.table = table;
      b.threads = 2;
      b.setUp();
      try {
        assertThat(b.scan()).as(table).isEqualTo(ours.get(table));
      } finally {
        b.tearDown();
      }
    }
  }
}
