package dev.prefetch.internal.runtime;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads everything and records what came out, for comparisons between read paths. */
final class Scans {

  /** One batch as it came out: its file, first row, row count, and row values. */
  record Seen(String file, long firstRow, int rowCount, long[] rows) {
    boolean sameAs(Seen other) {
      return file.equals(other.file)
          && firstRow == other.firstRow
          && rowCount == other.rowCount
          && java.util.Arrays.equals(rows, other.rows);
    }
  }

  private Scans() {}

  static List<Seen> readAll(List<DataFile> files, ReadOptions options) throws IOException {
    try (BatchReader reader = Readers.open(files, options, ReadContext.defaults())) {
      return drain(reader);
    }
  }

  static List<Seen> drain(BatchReader reader) throws IOException {
    List<Seen> seen = new ArrayList<>();
    for (RecordBatch batch; (batch = reader.next()) != null; ) {
      seen.add(drainOne(batch));
    }
    return seen;
  }

  static Seen drainOne(RecordBatch batch) {
    LongVector rows = (LongVector) batch.column("row");
    return new Seen(
        batch.file().path().getName(),
        batch.firstRow(),
        batch.rowCount(),
        java.util.Arrays.copyOf(rows.values(), batch.rowCount()));
  }

  static ReadOptions.Builder prefetching(int parallelism, int queueCapacity, int batchSize) {
    return ReadOptions.builder()
        .parallelism(parallelism)
        .queueCapacity(queueCapacity)
        .batchSize(batchSize)
        .minReadBytes(0);
  }

  static ReadOptions single(int batchSize) {
    return ReadOptions.builder().prefetchEnabled(false).batchSize(batchSize).build();
  }
}
