package dev.prefetch.internal.runtime;

import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.MemoryLedger;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * The single-reader path: one {@link RangeReader} per file walks the ranges in order on the
 * caller's thread. Starts no thread. Confined to the consumer thread.
 */
final class SequentialBatchReader extends ScanBatchReader {

  private int fileIndex;
  private FilePlan plan;
  private RangeReader reader;
  private int rangeIndex;
  private ReadException failure;

  SequentialBatchReader(
      FileSequence files, Schema schema, PrefetchDecision decision, ReadContext context) {
    super(files, schema, decision, context);
  }

  @Override
  RecordBatch nextBatch() throws IOException {
    if (failure != null) {
      throw failure;
    }
    ReadRange range = null;
    try {
      while (true) {
        if (reader == null) {
          if (fileIndex >= files.size()) {
            return null;
          }
          plan = files.planForRead(fileIndex);
          if (plan.ranges().isEmpty()) {
            files.claimsDone(fileIndex); // its plan is dropped: a long scan keeps one at a time
            fileIndex++;
            continue;
          }
          ReadScope.beginRange(files.counters(), plan.file(), plan.ranges().get(0));
          reader = files.openReader(plan, fileIndex, MemoryLedger.NONE);
          rangeIndex = 0;
          range = plan.ranges().get(0);
          reader.start(range);
        }
        range = plan.ranges().get(rangeIndex);
        RecordBatch batch = reader.next();
        if (batch != null) {
          stats.countBatch(batch.rowCount());
          return batch;
        }
        ReadScope.endRange(files.counters(), true);
        rangeIndex++;
        if (rangeIndex < plan.ranges().size()) {
          range = plan.ranges().get(rangeIndex);
          ReadScope.beginRange(files.counters(), plan.file(), range);
          reader.start(range);
        } else {
          RangeReader done = reader;
          reader = null;
          range = null;
          files.claimsDone(fileIndex);
          files.closeReader(done, fileIndex); // before moving on, so a failure names this file
          fileIndex++;
        }
      }
    } catch (Throwable t) {
      failure = Failures.wrap(files.file(Math.min(fileIndex, files.size() - 1)), range, t);
      if (t instanceof InterruptedIOException interrupted) {
        // As on the prefetching path, an interrupted consumer sees the interrupt itself; the
        // read cannot resume (the range reader stopped mid-batch), so later calls get failure.
        throw interrupted;
      }
      throw failure;
    }
  }

  @Override
  void release() throws IOException {
    ReadScope.endRange(files.counters(), false);
    try (FileSequence sequence = files) {
      if (reader != null) {
        try {
          reader.close();
        } catch (IOException | RuntimeException e) {
          throw Failures.wrap(files.file(Math.min(fileIndex, files.size() - 1)), null, e);
        }
      }
    } finally {
      reader = null;
    }
  }
}
