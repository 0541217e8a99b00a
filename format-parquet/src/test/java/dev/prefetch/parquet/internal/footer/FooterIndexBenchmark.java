package dev.prefetch.parquet.internal.footer;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.cache.MemoryCache;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Random row-group reads on a wide file: parquet-hadoop's footer paths against the footer index,
 * cold and warm. Each iteration picks a random row group and reads 10 of its columns.
 *
 * <p>Measured, each as the median over the iterations:
 *
 * <ul>
 *   <li>{@code hadoop-open-full}: {@code ParquetFileReader.open}, the whole footer parsed;
 *   <li>{@code hadoop-open-skip}: open with the {@code SKIP_ROW_GROUPS} metadata filter (yields no
 *       row group);
 *   <li>{@code hadoop-range+read}: open with {@code withRange} around the row group, then read it
 *       (parquet-hadoop's fastest path that yields the row group);
 *   <li>{@code hadoop-full+read}: open with the full footer, then read the row group;
 *   <li>{@code index-build}: one walk of the footer bytes into a {@link FooterIndex};
 *   <li>{@code ours-cold}: {@code Readers.open} with {@code parquet.read.row-groups=k} and no
 *       cache, then read;
 *   <li>{@code ours-warm}: the same with a warm metadata cache (footer bytes and index cached).
 * </ul>
 *
 * Before timing, every path's values of one row group are compared (a per-column hash); a mismatch
 * aborts the run.
 *
 * <p>Run (full size needs a quiet machine, about 4 GB of heap to write the file, and a few minutes
 * for the writer):
 *
 * <pre>
 * mvn -B -o -q test-compile dependency:build-classpath -pl format-parquet -am \
 *     -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -Xmx8g -cp format-parquet/target/test-classes:format-parquet/target/classes:\
 *     prefetch-core/target/classes:$(cat /tmp/cp.txt) \
 *     dev.prefetch.parquet.internal.footer.FooterIndexBenchmark \
 *     --columns 2000 --row-groups 500 --rows 10 --iterations 20 --file /tmp/wide-2000x500.parquet
 * </pre>
 *
 * A small smoke run: {@code --columns 200 --row-groups 50 --rows 10 --iterations 5}.
 */
public final class FooterIndexBenchmark {

  /** What one run times, in the order it reports them. */
  static final List<String> MEASURES =
      List.of(
          "hadoop-open-full",
          "hadoop-open-skip",
          "hadoop-range+read",
          "hadoop-full+read",
          "index-build",
          "ours-cold",
          "ours-warm");

  private static final int READ_COLUMNS = 10;

  /** Medians in nanoseconds by measurement name, in the order measured. */
  record Result(
      long footerBytes,
      long indexBytes,
      Map<String, Long> medianNanos,
      long rowGroupsDecodedWarm) {}

  private final int columns;
  private final int rowGroups;
  private final int rows;
  private final int iterations;
  private final Path path;
  private final PrintStream out;
  private long lastRowGroupsDecoded = -1;

  FooterIndexBenchmark(
      int columns, int rowGroups, int rows, int iterations, Path path, PrintStream out) {
    this.columns = columns;
    this.rowGroups = rowGroups;
    this.rows = rows;
    this.iterations = iterations;
    this.path = path;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i], args[i + 1]);
    }
    int columns = Integer.parseInt(options.getOrDefault("--columns", "200"));
    int rowGroups = Integer.parseInt(options.getOrDefault("--row-groups", "50"));
    int rows = Integer.parseInt(options.getOrDefault("--rows", "10"));
    int iterations = Integer.parseInt(options.getOrDefault("--iterations", "5"));
    Path file =
        Path.of(
            options.getOrDefault(
                "--file",
                System.getProperty("java.io.tmpdir")
                    + "/footer-index-"
                    + columns
                    + "x"
                    + rowGroups
                    + ".parquet"));
    new FooterIndexBenchmark(columns, rowGroups, rows, iterations, file, System.out).run();
  }

  Result run() throws Exception {
    WideFiles.Spec spec = new WideFiles.Spec(columns, rowGroups, rows, true, false);
    org.apache.hadoop.fs.Path hadoopPath = new org.apache.hadoop.fs.Path(path.toUri());
    if (!Files.exists(path)) {
      long started = System.nanoTime();
      WideFiles.write(hadoopPath, spec);
      out.printf("wrote %s in %.1f s%n", path, (System.nanoTime() - started) / 1e9);
    }
    byte[] footer = WideFiles.footerArray(hadoopPath);
    FooterIndex index = FooterIndex.build(ByteBuffer.wrap(footer), path.toString());
    long indexBytes = FooterIndexCodec.encode(index).length;
    out.printf(
        "file %s: %d columns x %d row groups, footer %,d bytes, encoded index %,d bytes%n",
        path, columns + 1, index.rowGroupCount(), footer.length, indexBytes);

    Configuration conf = new Configuration();
    // parquet-hadoop refuses footers over 100 MB by default (2,000 x 500 with statistics is
    // about that); raise its limit so that the baseline opens the full-size file at all
    conf.setInt(ParquetMetadataConverter.PARQUET_THRIFT_STRING_SIZE_LIMIT, Integer.MAX_VALUE);
    HadoopInputFile input = HadoopInputFile.fromPath(hadoopPath, conf);
    MessageType fileSchema = WideFiles.schema(spec);
    List<String> readColumns = new ArrayList<>();
    for (int i = 0; i < READ_COLUMNS && i < columns; i++) {
      readColumns.add("c" + (long) i * columns / Math.min(READ_COLUMNS, columns));
    }
    MessageType projected = project(fileSchema, readColumns);

    MemoryCache cache =
        MemoryCache.builder()
            .maximumBytes(Math.max(64L << 20, 2L * footer.length + indexBytes))
            .build();
    try (ReadContext cold = ReadContext.builder().build();
        ReadContext warm = ReadContext.builder().cache(cache).build()) {
      // correctness first: every path reads the same values of one row group
      int check = index.rowGroupCount() / 2;
      long[] expected = hadoopRead(input, conf, projected, fileSchema, check, false, index);
      requireSame(
          "hadoop range",
          expected,
          hadoopRead(input, conf, projected, fileSchema, check, true, index));
      requireSame("ours cold", expected, ours(check, readColumns, cold));
      requireSame("ours warm (loading)", expected, ours(check, readColumns, warm));
      requireSame("ours warm", expected, ours(check, readColumns, warm));
      long decoded = lastRowGroupsDecoded;
      out.printf(
          "values equal on row group %d; row groups decoded by a warm open: %d%n", check, decoded);

      Random random = new Random(42);
      Map<String, long[]> samples = new LinkedHashMap<>();
      for (String name : MEASURES) {
        samples.put(name, new long[iterations]);
      }
      for (int i = 0; i < iterations; i++) {
        int k = random.nextInt(index.rowGroupCount());
        long t0 = System.nanoTime();
        try (ParquetFileReader reader = ParquetFileReader.open(input, options(conf, null))) {
          blackhole(reader.getFooter().getBlocks().size());
        }
        long t1 = System.nanoTime();
        try (ParquetFileReader reader =
            ParquetFileReader.open(
                input,
                HadoopReadOptions.builder(conf)
                    .withMetadataFilter(ParquetMetadataConverter.SKIP_ROW_GROUPS)
                    .build())) {
          blackhole(reader.getFooter().getFileMetaData().getSchema().getFieldCount());
        }
        long t2 = System.nanoTime();
        blackhole(hadoopRead(input, conf, projected, fileSchema, k, true, index)[0]);
        long t3 = System.nanoTime();
        blackhole(hadoopRead(input, conf, projected, fileSchema, k, false, index)[0]);
        long t4 = System.nanoTime();
        blackhole(FooterIndex.build(ByteBuffer.wrap(footer), "bench").rowGroupCount());
        long t5 = System.nanoTime();
        blackhole(ours(k, readColumns, cold)[0]);
        long t6 = System.nanoTime();
        blackhole(ours(k, readColumns, warm)[0]);
        long t7 = System.nanoTime();
        long[] times = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6};
        int m = 0;
        for (long[] series : samples.values()) {
          series[i] = times[m++];
        }
      }
      Map<String, Long> medians = new LinkedHashMap<>();
      samples.forEach((name, series) -> medians.put(name, median(series)));
      long hadoopBest = medians.get("hadoop-range+read");
      out.printf("%-20s %12s %10s%n", "measurement", "median ms", "vs range");
      medians.forEach(
          (name, nanos) ->
              out.printf("%-20s %12.3f %9.1fx%n", name, nanos / 1e6, (double) hadoopBest / nanos));
      out.printf(
          "cold speedup %.1fx (target 10x), warm speedup %.1fx (target 100x)%n",
          (double) hadoopBest / medians.get("ours-cold"),
          (double) hadoopBest / medians.get("ours-warm"));
      return new Result(footer.length, indexBytes, medians, decoded);
    }
  }

  private static ParquetReadOptions options(Configuration conf, long[] range) {
    ParquetReadOptions.Builder builder = HadoopReadOptions.builder(conf);
    if (range != null) {
      builder.withRange(range[0], range[1]);
    }
    return builder.build();
  }

  /** parquet-hadoop reads row group k: through {@code withRange} or the full footer. */
  private static long[] hadoopRead(
      HadoopInputFile input,
      Configuration conf,
      MessageType projected,
      MessageType fileSchema,
      int k,
      boolean range,
      FooterIndex index)
      throws IOException {
    long[] bounds = null;
    if (range) {
      // a range that holds row group k's midpoint only: [start, start + size)
      long start = index.rowGroupFileOffset(k);
      long size = index.rowGroupCompressedSize(k);
      bounds = new long[] {start, start + size};
    }
    try (ParquetFileReader reader = ParquetFileReader.open(input, options(conf, bounds))) {
      reader.setRequestedSchema(projected);
      List<BlockMetaData> blocks = reader.getRowGroups();
      int position = range ? 0 : k;
      if (range
          && (blocks.size() != 1
              || blocks.get(0).getRowIndexOffset() != index.rowGroupFirstRow(k))) {
        throw new IllegalStateException("withRange chose " + blocks.size() + " row groups");
      }
      PageReadStore pages = reader.readRowGroup(position);
      MessageColumnIO io = new ColumnIOFactory().getColumnIO(projected, fileSchema);
      RecordReader<Group> records = io.getRecordReader(pages, new GroupRecordConverter(projected));
      long[] hashes = new long[projected.getFieldCount()];
      for (long r = 0; r < pages.getRowCount(); r++) {
        Group group = records.read();
        for (int c = 0; c < hashes.length; c++) {
          hashes[c] =
              hashes[c] * 31 + (group.getFieldRepetitionCount(c) == 0 ? 7 : group.getLong(c, 0));
        }
      }
      return hashes;
    }
  }

  private long[] ours(int k, List<String> readColumns, ReadContext context) throws IOException {
    ReadOptions options =
        ReadOptions.fromProperties(
            Map.of(
                RowGroupSelection.ROW_GROUPS_PROPERTY, Integer.toString(k),
                ReadOptions.COLUMNS, String.join(",", readColumns),
                ReadOptions.PREFETCH_ENABLED, "false"));
    long[] hashes = new long[readColumns.size()];
    try (BatchReader reader = Readers.open(path, options, context)) {
      RecordBatch batch;
      while ((batch = reader.next()) != null) {
        for (int c = 0; c < hashes.length; c++) {
          ColumnVector vector = batch.column(c);
          LongVector longs = (LongVector) vector;
          for (int r = 0; r < batch.rowCount(); r++) {
            hashes[c] = hashes[c] * 31 + (vector.isNull(r) ? 7 : longs.get(r));
          }
        }
      }
      lastRowGroupsDecoded = reader.metrics().counter(IndexedFooterReader.ROW_GROUPS_DECODED);
    }
    return hashes;
  }

  private static MessageType project(MessageType schema, List<String> names) {
    List<Type> fields = new ArrayList<>();
    for (String name : names) {
      fields.add(schema.getType(name));
    }
    return new MessageType(schema.getName(), fields);
  }

  private static void requireSame(String what, long[] expected, long[] actual) {
    if (!Arrays.equals(expected, actual)) {
      throw new IllegalStateException(
          what
              + " read other values than parquet-hadoop: "
              + Arrays.toString(actual)
              + " vs "
              + Arrays.toString(expected));
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static volatile long sink;

  private static void blackhole(long value) {
    sink += value;
  }
}
