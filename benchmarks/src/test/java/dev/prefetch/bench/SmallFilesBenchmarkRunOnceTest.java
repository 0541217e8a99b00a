package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link SmallFilesBenchmark} once per contender, after its real setup (with its correctness
 * check), on a tiny data set cut into small files, so that it cannot rot between benchmark runs.
 */
@Timeout(300)
class SmallFilesBenchmarkRunOnceTest {

  @TempDir static Path dir;

  @BeforeAll
  static void tinyData() {
    System.setProperty(BenchData.DIR_PROPERTY, dir.toString());
    System.setProperty(BenchData.ROWS_PROPERTY, "30000");
    System.setProperty(BenchData.SMALL_FILE_ROWS_PROPERTY, "7000");
  }

  @AfterAll
  static void restore() {
    System.clearProperty(BenchData.DIR_PROPERTY);
    System.clearProperty(BenchData.ROWS_PROPERTY);
    System.clearProperty(BenchData.SMALL_FILE_ROWS_PROPERTY);
  }

  @Test
  void theSmallFilesArePiecesOfTheScanTableWithOneRowGroupEach() throws Exception {
    List<Path> files = BenchData.smallFiles();
    assertThat(files).hasSize(5); // 4 x 7,000 rows and one of 2,000
    for (Path file : files) {
      assertThat(Files.isRegularFile(file)).as(file.toString()).isTrue();
    }
    long modified = Files.getLastModifiedTime(files.get(0)).toMillis();
    assertThat(BenchData.smallFiles()).isEqualTo(files); // reused, not written again
    assertThat(Files.getLastModifiedTime(files.get(0)).toMillis()).isEqualTo(modified);
  }

  @Test
  void everyContenderRunsOnceAfterItsChecksumOrRowCountCheck() throws Exception {
    for (String reader : new String[] {"single", "prefetch-2", "one-file-prefetch-2"}) {
      SmallFilesBenchmark b = new SmallFilesBenchmark();
      b.reader = reader;
      b.setUp();
      try {
        assertThat(b.scan()).as(reader).hasSize(16);
      } finally {
        b.tearDown();
      }
    }
    SmallFilesBenchmark duckDb = new SmallFilesBenchmark();
    duckDb.reader = "duckdb-2";
    duckDb.setUp();
    try {
      assertThat(duckDb.scan()).startsWith("30000,");
    } finally {
      duckDb.tearDown();
    }
  }
}
