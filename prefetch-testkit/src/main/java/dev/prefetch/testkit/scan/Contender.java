package dev.prefetch.testkit.scan;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.RowRange;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testkit.baseline.BaselineResult;
import dev.prefetch.testkit.baseline.OrcBaseline;
import dev.prefetch.testkit.baseline.ParquetBaseline;
import dev.prefetch.testkit.baseline.RowProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/** One way of reading a file: our reader (single or prefetching) or a format library's own. */
public interface Contender {

  /** The contender's name in tables and JSON. */
  String name();

  /** Reads every selected value of {@code file} once. */
  Scan scan(Path path, String format, boolean perColumn, ProgressBar progress) throws IOException;

  /**
   * Reads every selected value of {@code paths} once, as one stream in list order (see {@link
   * StreamScan} for its checksum). Only our reader reads a stream; the libraries' readers read one
   * file at a time.
   */
  default Scan scanStream(List<Path> paths, boolean perColumn, ProgressBar progress)
      throws IOException {
    throw new UnsupportedOperationException(name() + " reads one file at a time");
  }

  /** Reads every selected value of {@code file} once more, feeding each to {@code probe}. */
  void probe(Path path, String format, RowProbe probe) throws IOException;

  /**
   * One read's outcome.
   *
   * @param rows rows read
   * @param batches batches, row groups or vectorized batches read
   * @param bytesRead bytes read from storage as counted by the reader, or -1 when unknown
   * @param checksum checksum of every value read
   * @param columnChecksums one checksum per column, or empty
   * @param columnNames the columns read
   * @param prefetch whether prefetching was chosen
   * @param parallelism producers started
   * @param ranges ranges planned
   * @param footerReads footer (Parquet) or tail (ORC) reads from storage, or -1 when unknown
   * @param footerBytesRead footer or tail bytes read from storage, or -1 when unknown
   * @param readRequests storage requests, or -1 when unknown
   */
  record Scan(
      long rows,
      long batches,
      long bytesRead,
      String checksum,
      List<String> columnChecksums,
      List<String> columnNames,
      boolean prefetch,
      int parallelism,
      long ranges,
      long footerReads,
      long footerBytesRead,
      long readRequests) {}

  /** Our reader, through {@link Readers#open}, with {@code options}. */
  static Contender ours(String name, ReadOptions options, ReadContext context, Object filter) {
    return ours(name, options, context, filter, ScanConsumer.CHECKSUM);
  }

  /**
   * Our reader, feeding every value to {@code consumer}: with {@link ScanConsumer#SUMS}, each
   * scan's checksum is the {@link ValueSums}' value (see {@link StreamScan}).
   */
  static Contender ours(
      String name, ReadOptions options, ReadContext context, Object filter, ScanConsumer consumer) {
    return new Contender() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Scan scan(Path path, String format, boolean perColumn, ProgressBar progress)
          throws IOException {
        return scanStream(List.of(path), perColumn, progress);
      }

      @Override
      public Scan scanStream(List<Path> paths, boolean perColumn, ProgressBar progress)
          throws IOException {
        ReadOptions effective =
            filter == null ? options : options.toBuilder().filter(filter).build();
        List<DataFile> files = new ArrayList<>();
        for (Path path : paths) {
          files.add(DataFile.of(path));
        }
        return StreamScan.scan(files, effective, context, perColumn, progress, consumer);
      }

      @Override
      public void probe(Path path, String format, RowProbe probe) throws IOException {
        ReadOptions effective =
            filter == null ? options : options.toBuilder().filter(filter).build();
        try (BatchReader reader = Readers.open(DataFile.of(path), effective, context)) {
          for (RecordBatch batch; (batch = reader.next()) != null; ) {
            for (int c = 0; c < batch.columns().size(); c++) {
              for (int r = 0; r < batch.rowCount(); r++) {
                BatchValues.feedRow(batch.column(c), r, c, probe);
              }
            }
            batch.release();
          }
        }
        probe.finish();
      }
    };
  }

  /**
   * The format library's own fastest full decode: parquet-hadoop's column readers or orc-core's
   * vectorized record reader, chosen by the file's format.
   */
  static Contender library(
      Configuration conf,
      List<String> columns,
      Object filter,
      List<Integer> rowGroups,
      RowRange rows) {
    return library(conf, columns, filter, rowGroups, rows, false);
  }

  /**
   * As {@link #library(Configuration, List, Object, List, RowRange)}, with the reader's INT96
   * mapping: nanoseconds when {@code int96Nanos}, else microseconds.
   */
  static Contender library(
      Configuration conf,
      List<String> columns,
      Object filter,
      List<Integer> rowGroups,
      RowRange rows,
      boolean int96Nanos) {
    return new Contender() {
      @Override
      public String name() {
        return "library";
      }

      @Override
      public Scan scan(Path path, String format, boolean perColumn, ProgressBar progress)
          throws IOException {
        BaselineResult r = read(path, format, perColumn, null);
        progress.add(r.rows());
        return new Scan(
            r.rows(),
            r.batches(),
            -1,
            r.checksum(),
            r.columnChecksums(),
            r.columnNames(),
            false,
            0,
            r.batches(),
            -1,
            -1,
            -1);
      }

      @Override
      public void probe(Path path, String format, RowProbe probe) throws IOException {
        read(path, format, false, probe);
        probe.finish();
      }

      /**
       * One read by the library. Its own failures on a file it cannot read are read errors naming
       * the file, not usage errors; only an unknown column stays one.
       */
      private BaselineResult read(Path path, String format, boolean perColumn, RowProbe probe)
          throws IOException {
        try {
          return format.equals("parquet")
              ? ParquetBaseline.scan(
                  path,
                  conf,
                  columns,
                  (FilterPredicate) filter,
                  rowGroups,
                  rows,
                  perColumn,
                  int96Nanos,
                  probe)
              : OrcBaseline.scan(
                  path, conf, columns, (SearchArgument) filter, rows, perColumn, probe);
        } catch (IllegalArgumentException e) {
          if (e.getMessage() != null && e.getMessage().startsWith(path + ": no column")) {
            throw e;
          }
          throw new IOException(path + ": " + libraryName(format) + " cannot read it: " + e, e);
        }
      }
    };
  }

  /** The display name of the library contender for a format. */
  static String libraryName(String format) {
    return format.equals("parquet") ? "parquet-hadoop" : "orc-core";
  }
}
