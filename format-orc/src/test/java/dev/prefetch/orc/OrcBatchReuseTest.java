package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batches are built in arrays of the column's pool: batches the caller still holds must keep their
 * values while later batches are read, and the arrays of batches the caller released are filled
 * again for later ones.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrcBatchReuseTest {

  private static final int ROWS = 5_000;

  @TempDir java.nio.file.Path dir;

  @ParameterizedTest(name = "batch={0}")
  @ValueSource(ints = {1, 7, 1000, 4096})
  void batchesHeldUntilTheEndKeepEveryValueOfEveryType(int batchSize) throws IOException {
    java.nio.file.Path file =
        OrcTestFiles.write(
            dir.resolve("all.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS).stripeRows(2500));
    List<Rows.Row> expected = Rows.reference(file, List.of(), null, new Configuration(), null);

    assertThat(heldRows(file, batchSize)).isEqualTo(expected);
  }

  @Test
  void dictionaryDirectEmptyAndNullStringsKeepTheirValuesAcrossBatches() throws IOException {
    java.nio.file.Path file = writeStrings(dir.resolve("strings.orc"));
    List<Rows.Row> expected = Rows.reference(file, List.of(), null, new Configuration(), null);

    assertThat(heldRows(file, 1000)).isEqualTo(expected);
    assertThat(heldRows(file, 4096)).isEqualTo(expected);
  }

  @Test
  void aReleasedBatchsArraysAreFilledAgainByTheNextBatch() throws IOException {
    java.nio.file.Path file = writeStrings(dir.resolve("strings.orc"));
    ReadOptions options = ReadOptions.builder().prefetchEnabled(false).batchSize(1000).build();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      RecordBatch first = reader.next();
      long[] longs = ((LongVector) first.column("n")).values();
      double[] doubles = ((DoubleVector) first.column("x")).values();
      RecordBatch held = reader.next();
      first.release();
      // The batch decoded after the release takes the released arrays; one still held keeps its.
      RecordBatch third = reader.next();

      assertThat(((LongVector) held.column("n")).values()).isNotSameAs(longs);
      assertThat(((LongVector) third.column("n")).values()).isSameAs(longs);
      assertThat(((DoubleVector) third.column("x")).values()).isSameAs(doubles);
    }
  }

  @Test
  void theNextFileOfAStreamFillsTheArraysThePreviousFileReleased() throws IOException {
    java.nio.file.Path first = writeStrings(dir.resolve("first.orc"));
    java.nio.file.Path second = writeStrings(dir.resolve("second.orc"));
    ReadOptions options = ReadOptions.builder().prefetchEnabled(false).batchSize(1000).build();
    Set<long[]> released = Collections.newSetFromMap(new IdentityHashMap<>());
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(List.of(DataFile.of(first), DataFile.of(second)), options, context)) {
      RecordBatch batch;
      while ((batch = reader.next()).file().equals(DataFile.of(first))) {
        released.add(((LongVector) batch.column("n")).values());
        batch.release();
      }
      // The second file's batches are built in what the first file's batches gave back.
      boolean reused = false;
      for (int i = 0; i < 3 && batch != null; i++, batch = reader.next()) {
        reused |= released.contains(((LongVector) batch.column("n")).values());
        batch.release();
      }
      assertThat(reused).isTrue();
    }
  }

  @ParameterizedTest(name = "parallelism={0}")
  @ValueSource(ints = {1, 2})
  void batchesReleasedAsTheyAreReadKeepEveryValueOfEveryType(int parallelism) throws IOException {
    java.nio.file.Path file =
        OrcTestFiles.write(
            dir.resolve("all.orc"),
            OrcTestFiles.Spec.of(OrcTestFiles.ALL_TYPES, ROWS).stripeRows(2500));
    List<Rows.Row> expected = Rows.reference(file, List.of(), null, new Configuration(), null);
    ReadOptions options =
        ReadOptions.builder()
            .minReadBytes(0)
            .parallelism(parallelism)
            .queueCapacity(2)
            .batchSize(700)
            .build();
    List<Rows.Row> rows = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        rows.addAll(rowsOf(batch));
        batch.release();
      }
    }
    assertThat(rows).isEqualTo(expected);
  }

  /** Reads every batch first, single-threaded, and only then looks at their values. */
  private static List<Rows.Row> heldRows(java.nio.file.Path file, int batchSize)
      throws IOException {
    ReadOptions options = ReadOptions.builder().prefetchEnabled(false).batchSize(batchSize).build();
    List<RecordBatch> batches = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        batches.add(batch);
      }
    }
    List<Rows.Row> rows = new ArrayList<>();
    for (RecordBatch batch : batches) {
      rows.addAll(rowsOf(batch));
    }
    return rows;
  }

  private static List<Rows.Row> rowsOf(RecordBatch batch) {
    List<Rows.Row> rows = new ArrayList<>();
    for (int r = 0; r < batch.rowCount(); r++) {
      List<Object> values = new ArrayList<>();
      for (ColumnVector column : batch.columns()) {
        values.add(Rows.ours(column, r));
      }
      rows.add(new Rows.Row(batch.firstRow() + r, values));
    }
    return rows;
  }

  /**
   * A low-cardinality string (dictionary encoded), a unique one (direct), one with empty values and
   * nulls in some row groups only, one null or constant by stretches (repeating vectors), and a
   * nullable bigint and double whose arrays are handed over.
   */
  private static java.nio.file.Path writeStrings(java.nio.file.Path file) throws IOException {
    TypeDescription schema =
        TypeDescription.fromString(
            "struct<low:string,high:string,sparse:string,runs:string,n:bigint,x:double>");
    Configuration conf = new Configuration();
    OrcConf.STRIPE_ROW_COUNT.setLong(conf, 3000);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(conf)
            .setSchema(schema)
            .rowIndexStride(1000)
            .bufferSize(4096)
            .overwrite(true);
    try (Writer writer = OrcFile.createWriter(new Path(file.toUri()), options)) {
      VectorizedRowBatch batch = schema.createRowBatch(500);
      for (int row = 0; row < ROWS; row += batch.getMaxSize()) {
        batch.reset();
        for (int i = 0; i < batch.getMaxSize(); i++) {
          long r = row + i;
          set(batch, 0, i, "v" + (r % 5));
          set(batch, 1, i, "row-" + r);
          set(batch, 2, i, (r / 1000) % 2 == 0 ? (r % 3 == 0 ? null : "") : "s" + (r % 7));
          set(batch, 3, i, (r / 700) % 2 == 0 ? null : "same");
          LongColumnVector n = (LongColumnVector) batch.cols[4];
          DoubleColumnVector x = (DoubleColumnVector) batch.cols[5];
          if (r % 11 == 0 && (r / 2000) % 2 == 0) {
            n.noNulls = false;
            n.isNull[i] = true;
            x.noNulls = false;
            x.isNull[i] = true;
          } else {
            n.vector[i] = r * 31;
            x.vector[i] = r / 4.0;
          }
        }
        batch.size = batch.getMaxSize();
        writer.addRowBatch(batch);
      }
    }
    return file;
  }

  private static void set(VectorizedRowBatch batch, int column, int slot, String value) {
    BytesColumnVector v = (BytesColumnVector) batch.cols[column];
    if (value == null) {
      v.noNulls = false;
      v.isNull[slot] = true;
    } else {
      v.setVal(slot, value.getBytes(StandardCharsets.UTF_8));
    }
  }
}
