package dev.prefetch.it.fuzz;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Replays one saved fuzz case: {@code mvn -o test -pl integration-tests -Dtest=FuzzReplayTest
 * -Dfuzz.replay=target/fuzz-failures/case-87-flat_none.orc}. Skipped without that property.
 */
class FuzzReplayTest {

  @Test
  void replaysASavedCase() throws Exception {
    String file = System.getProperty("fuzz.replay");
    assumeTrue(file != null, "no -Dfuzz.replay=FILE given");
    ReadOptions options =
        ReadOptions.builder()
            .prefetchEnabled(Boolean.getBoolean("fuzz.prefetch"))
            .minReadBytes(0)
            .build();
    long rows = 0;
    try (BatchReader reader =
        Readers.open(DataFile.of(Path.of(file)), options, ReadContext.defaults())) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows += batch.rowCount();
      }
    }
    System.out.println("read " + rows + " rows");
  }
}
