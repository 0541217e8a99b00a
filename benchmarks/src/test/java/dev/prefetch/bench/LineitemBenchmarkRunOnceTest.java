package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openjdk.jmh.annotations.Param;

/**
 * The lineitem benchmark's tables are written by their writers with the layout it describes, and
 * every trial runs once after its real setup (our checksum against the library's), on a small
 * table.
 */
@Timeout(300)
@ExtendWith(TinyBenchData.class)
class LineitemBenchmarkRunOnceTest {

  private static final long ROWS = TinyBenchData.ROWS;

  @BeforeAll
  static void smallTable() {
    System.setProperty(LineitemData.ROWS_PROPERTY, Long.toString(ROWS));
  }

  @AfterAll
  static void restore() {
    System.clearProperty(LineitemData.ROWS_PROPERTY);
  }

  @Test
  void duckDbWritesSixteenColumnsAndOrcCoreTheSameRows() throws Exception {
    for (Path file : List.of(LineitemData.parquetFile(), LineitemData.orcFile())) {
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader = Readers.open(file, ReadOptions.defaults(), context)) {
        List<String> names = new ArrayList<>();
        for (int c = 0; c < reader.schema().size(); c++) {
          names.add(reader.schema().field(c).name());
        }
        assertThat(names).as(file.toString()).isEqualTo(LineitemData.COLUMNS);
        long rows = 0;
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          rows += batch.rowCount();
          batch.release();
        }
        assertThat(rows).as(file.toString()).isEqualTo(ROWS);
      }
    }
    assertThat(LineitemData.COLUMNS).hasSize(16).doesNotHaveDuplicates();
    assertThat(LineitemData.GROUPS.values().stream().flatMap(List::stream))
        .containsExactlyInAnyOrderElementsOf(LineitemData.COLUMNS);
  }

  @Test
  void everyLineitemTrialRunsOnceAndOursReadsTheLibrarysChecksum() throws Exception {
    // Every trial JMH runs: the benchmark's own parameter lists.
    String[] tables = LineitemBenchmark.class.getField("table").getAnnotation(Param.class).value();
    String[] readers =
        LineitemBenchmark.class.getField("reader").getAnnotation(Param.class).value();
    assertThat(tables).contains("parquet-all", "orc-all");
    for (String table : tables) {
      for (String reader : readers) {
        LineitemBenchmark b = new LineitemBenchmark();
        b.table = table;
        b.reader = reader;
        b.setUp();
        try {
          String scan = b.scan();
          if (table.startsWith("parquet") && reader.equals("native")) {
            assertThat(scan).startsWith(ROWS + ",");
          } else {
            assertThat(scan).hasSize(16);
          }
        } finally {
          b.tearDown();
        }
      }
    }
  }

  @Test
  void everyDecompressionFloorTrialRunsOnceAndProducesTheFootersUncompressedBytes()
      throws Exception {
    String[] tables =
        DecompressionFloorBenchmark.class.getField("table").getAnnotation(Param.class).value();
    assertThat(tables).contains("scan", "lineitem-all", "lineitem-comment");
    for (String table : tables) {
      long decompressed = -1;
      for (String work : new String[] {"decompress", "copy"}) {
        for (int threads : new int[] {1, 2}) {
          DecompressionFloorBenchmark b = new DecompressionFloorBenchmark();
          b.table = table;
          b.threads = threads;
          b.work = work;
          b.setUp(); // checks the bytes against the footer's (decompress) or its pages' (copy)
          try {
            long bytes = b.scan();
            assertThat(bytes).as("%s %s %d", table, work, threads).isPositive();
            if (work.equals("decompress")) {
              decompressed = bytes;
            } else {
              // the copy moves the pages alone: less than the pages with their headers
              assertThat(bytes).isLessThan(decompressed);
            }
          } finally {
            b.tearDown();
          }
        }
      }
    }
  }
}
