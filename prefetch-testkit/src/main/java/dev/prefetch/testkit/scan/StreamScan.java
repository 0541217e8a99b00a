package dev.prefetch.testkit.scan;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.ReaderMetrics;
import dev.prefetch.Readers;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.spi.ScanCounters;
import dev.prefetch.testing.Checksum;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One scan by our reader of one file or of several read as one stream ({@link Readers#open(List,
 * ReadOptions, ReadContext)}), with its checksum and the reader's figures.
 *
 * <p>The checksum of a stream is the {@link Checksum} of every selected value in stream order: the
 * files in list order, each file's rows in order. It equals the checksum of one file holding the
 * same rows one file after another; it is not a combination of the files' own checksums, which the
 * hash's running lanes do not allow.
 */
public final class StreamScan {

  private StreamScan() {}

  /**
   * Reads every selected value of {@code files}, in order, once.
   *
   * @param perColumn whether to compute a checksum per column too
   */
  public static Contender.Scan scan(
      List<DataFile> files,
      ReadOptions options,
      ReadContext context,
      boolean perColumn,
      ProgressBar progress)
      throws IOException {
    return scan(files, options, context, perColumn, progress, ScanConsumer.CHECKSUM);
  }

  /**
   * As {@link #scan(List, ReadOptions, ReadContext, boolean, ProgressBar)}, feeding every value to
   * {@code consumer}: with {@link ScanConsumer#SUMS}, the scan's checksum is the {@link ValueSums}'
   * value, and there are no per-column checksums ({@code perColumn} must be false).
   */
  public static Contender.Scan scan(
      List<DataFile> files,
      ReadOptions options,
      ReadContext context,
      boolean perColumn,
      ProgressBar progress,
      ScanConsumer consumer)
      throws IOException {
    if (consumer == ScanConsumer.SUMS) {
      if (perColumn) {
        throw new IllegalArgumentException("per-column checksums need the checksum consumer");
      }
      return sums(files, options, context, progress);
    }
    try (BatchReader reader = Readers.open(files, options, context)) {
      Schema schema = reader.schema();
      Checksum all = new Checksum(schema.size());
      Checksum[] single = perColumn ? new Checksum[schema.size()] : null;
      List<Schema> singleSchemas = new ArrayList<>();
      for (int c = 0; perColumn && c < schema.size(); c++) {
        single[c] = new Checksum(1);
        singleSchemas.add(new Schema(List.of(schema.field(c))));
      }
      long batches = 0;
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        all.add(batch);
        if (perColumn) {
          for (int c = 0; c < single.length; c++) {
            single[c].add(
                new RecordBatch(
                    batch.file(),
                    batch.firstRow(),
                    batch.rowCount(),
                    singleSchemas.get(c),
                    List.of(batch.column(c))));
          }
        }
        batches++;
        progress.add(batch.rowCount());
        batch.release(); // an engine done with a batch hands its arrays back to the reader
      }
      ReaderMetrics m = reader.metrics();
      List<String> names = new ArrayList<>();
      List<String> columnSums = new ArrayList<>();
      for (int c = 0; c < schema.size(); c++) {
        names.add(schema.field(c).name());
        if (perColumn) {
          columnSums.add(single[c].value());
        }
      }
      return new Contender.Scan(
          all.rows(),
          batches,
          m.bytesRead(),
          all.value(),
          columnSums,
          names,
          m.prefetch(),
          m.parallelism(),
          m.rangesPlanned(),
          m.counter(ScanCounters.FOOTER_READS),
          m.counter(ScanCounters.FOOTER_BYTES_READ),
          m.counter(ScanCounters.READ_REQUESTS));
    }
  }

  /** The scan with {@link ValueSums} as its consumer. */
  private static Contender.Scan sums(
      List<DataFile> files, ReadOptions options, ReadContext context, ProgressBar progress)
      throws IOException {
    try (BatchReader reader = Readers.open(files, options, context)) {
      Schema schema = reader.schema();
      ValueSums sums = new ValueSums(schema.size());
      long batches = 0;
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        sums.add(batch);
        batches++;
        progress.add(batch.rowCount());
        batch.release();
      }
      ReaderMetrics m = reader.metrics();
      List<String> names = new ArrayList<>();
      for (int c = 0; c < schema.size(); c++) {
        names.add(schema.field(c).name());
      }
      return new Contender.Scan(
          sums.rows(),
          batches,
          m.bytesRead(),
          sums.value(),
          List.of(),
          names,
          m.prefetch(),
          m.parallelism(),
          m.rangesPlanned(),
          m.counter(ScanCounters.FOOTER_READS),
          m.counter(ScanCounters.FOOTER_BYTES_READ),
          m.counter(ScanCounters.READ_REQUESTS));
    }
  }
}
