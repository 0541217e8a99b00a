package dev.prefetch.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.testing.Checksum;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;

/** Reads files to the end and describes what came out, batch by batch, for comparisons. */
public final class Scans {

  private Scans() {}

  /**
   * One batch as seen by the consumer: where it starts, how many rows, and a hash of its values.
   */
  public record BatchDigest(long firstRow, int rowCount, String checksum) {
    static BatchDigest of(RecordBatch batch) {
      Checksum checksum = new Checksum(batch.columns().size());
      checksum.add(batch);
      return new BatchDigest(batch.firstRow(), batch.rowCount(), checksum.value());
    }
  }

  /** Everything a read returned. */
  public record Result(List<BatchDigest> batches) {
    public long rows() {
      long rows = 0;
      for (BatchDigest batch : batches) {
        rows += batch.rowCount();
      }
      return rows;
    }

    /** Asserts these batches are the first batches of {@code full}, value for value. */
    public void assertPrefixOf(Result full) {
      assertThat(batches.size()).isLessThanOrEqualTo(full.batches.size());
      assertThat(batches).isEqualTo(full.batches.subList(0, batches.size()));
    }
  }

  /**
   * Options that prefetch even tiny files, with {@code parallelism} producers, reading them by
   * parts: the reliability tests aim their faults at the reads of ranges, which a small file read
   * whole would make at open ({@code WholeFileFaultsTest} aims them at the whole read).
   */
  public static ReadOptions.Builder prefetching(int parallelism) {
    return ReadOptions.builder()
        .prefetchEnabled(true)
        .parallelism(parallelism)
        .minReadBytes(0)
        .wholeFileBytes(0)
        .property(OrcOptions.NATURAL_READ_SIZE, "16k")
        .batchSize(500);
  }

  /** Options of the reference read: one reader on the caller's thread, by parts. */
  public static ReadOptions single() {
    return ReadOptions.builder()
        .prefetchEnabled(false)
        .wholeFileBytes(0)
        .property(OrcOptions.NATURAL_READ_SIZE, "16k")
        .batchSize(500)
        .build();
  }

  /** Reads {@code path} to the end. */
  public static Result readAll(Path path, ReadOptions options, ReadContext context)
      throws IOException {
    try (BatchReader reader = Readers.open(DataFile.of(path), options, context)) {
      return drain(reader, new ArrayList<>());
    }
  }

  /**
   * Reads the rest of {@code reader} into {@code seen} (kept when next() throws). Each batch is
   * released once digested, so every comparison also covers batches built in recycled arrays.
   */
  public static Result drain(BatchReader reader, List<BatchDigest> seen) throws IOException {
    for (RecordBatch batch; (batch = reader.next()) != null; ) {
      seen.add(BatchDigest.of(batch));
      batch.release();
    }
    return new Result(seen);
  }

  /** Reads at most {@code count} batches into {@code seen}. */
  public static void take(BatchReader reader, int count, List<BatchDigest> seen)
      throws IOException {
    for (int i = 0; i < count; i++) {
      RecordBatch batch = reader.next();
      if (batch == null) {
        return;
      }
      seen.add(BatchDigest.of(batch));
      batch.release();
    }
  }
}
