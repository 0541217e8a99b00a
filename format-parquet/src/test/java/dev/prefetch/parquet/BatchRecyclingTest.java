package dev.prefetch.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.testing.CountingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Released batches give their arrays back to the reader, which fills them for later batches. */
@ExtendWith(NoReaderThreadsLeft.class)
@Timeout(120)
class BatchRecyclingTest {

  private static final int ROWS = 60_000;

  @TempDir static Path dir;
  static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    file =
        ParquetTestFiles.write(
            dir.resolve("recycled.parquet"),
            SplitRowGroupTest.SCHEMA,
            ROWS,
            ParquetTestFiles.WriteSpec.defaults()
                .codec(CompressionCodecName.SNAPPY)
                .rowGroupBytes(256L << 10)
                .pageRowLimit(2000),
            SplitRowGroupTest::fill);
  }

  private static ReadOptions.Builder options() {
    return ReadOptions.builder().minReadBytes(0).batchSize(1000);
  }

  @Test
  void theNextBatchIsBuiltInTheArraysOfTheReleasedOne() throws IOException {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(file, options().prefetchEnabled(false).build(), context)) {
      RecordBatch first = reader.next();
      long[] ids = ((LongVector) first.column("id")).values();
      double[] values = ((DoubleVector) first.column("value")).values();
      boolean[] valueNulls = first.column("value").nullMask();
      int[] offsets = ((BinaryVector) first.column("name")).offsets();
      first.release();

      RecordBatch second = reader.next();

      assertThat(((LongVector) second.column("id")).values()).isSameAs(ids);
      assertThat(((DoubleVector) second.column("value")).values()).isSameAs(values);
      assertThat(second.column("value").nullMask()).isSameAs(valueNulls);
      assertThat(((BinaryVector) second.column("name")).offsets()).isSameAs(offsets);
      checkValues(second);
    }
  }

  @Test
  void theFirstBatchOfTheNextFileIsBuiltInTheArraysTheLastFileReleased() throws IOException {
    Path copy = dir.resolve("recycled-copy.parquet");
    Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(
                List.of(DataFile.of(file), DataFile.of(copy)),
                options().prefetchEnabled(false).build(),
                context)) {
      long[] lastIds = null;
      int[] lastOffsets = null;
      for (long rows = 0; rows < ROWS; ) {
        RecordBatch batch = reader.next();
        lastIds = ((LongVector) batch.column("id")).values();
        lastOffsets = ((BinaryVector) batch.column("name")).offsets();
        rows += batch.rowCount();
        batch.release();
      }

      RecordBatch next = reader.next();

      assertThat(next.file()).isEqualTo(DataFile.of(copy));
      assertThat(((LongVector) next.column("id")).values()).isSameAs(lastIds);
      assertThat(((BinaryVector) next.column("name")).offsets()).isSameAs(lastOffsets);
      checkValues(next);
    }
  }

  @Test
  void batchesThatAreNotReleasedKeepTheirOwnArrays() throws IOException {
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(file, options().prefetchEnabled(false).build(), context)) {
      RecordBatch first = reader.next();
      RecordBatch second = reader.next();

      assertThat(((LongVector) second.column("id")).values())
          .isNotSameAs(((LongVector) first.column("id")).values());
      checkValues(first);
      checkValues(second);
    }
  }

  @Test
  void producersFillWhatTheConsumerReleasedAndEveryValueStaysRight() throws IOException {
    Set<long[]> idArrays = Collections.newSetFromMap(new IdentityHashMap<>());
    long rows = 0;
    long batches = 0;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader =
            Readers.open(file, options().parallelism(2).queueCapacity(2).build(), context)) {
      assertThat(reader.metrics().prefetch()).isTrue();
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        checkValues(batch);
        idArrays.add(((LongVector) batch.column("id")).values());
        rows += batch.rowCount();
        batches++;
        batch.release();
      }
    }
    assertThat(rows).isEqualTo(ROWS);
    assertThat(idArrays)
        .as("distinct arrays of %s batches", batches)
        .hasSizeLessThan((int) batches / 2);
  }

  @Test
  void rangesReadByVectoredReadsKeepEveryValueRightWhileTheirBuffersAreReused() throws IOException {
    // A non-local scheme: parquet-hadoop reads chunks with vectored reads, which it never
    // releases; the range reader reclaims their arrays for the next range itself.
    org.apache.hadoop.fs.Path path = CountingFileSystem.path(file);
    for (ReadOptions options :
        new ReadOptions[] {
          options().prefetchEnabled(false).build(), options().parallelism(2).build()
        }) {
      long rows = 0;
      try (ReadContext context =
              ReadContext.builder().configuration(CountingFileSystem.configuration()).build();
          BatchReader reader = Readers.open(path, options, context)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          checkValues(batch);
          rows += batch.rowCount();
          batch.release();
        }
        assertThat(reader.metrics().rangesPlanned()).isGreaterThan(2);
      }
      assertThat(rows).isEqualTo(ROWS);
      assertThat(CountingFileSystem.counts(file).bytesRead()).isPositive();
    }
  }

  /** Every value of {@code batch} as {@link SplitRowGroupTest#fill} wrote it. */
  private static void checkValues(RecordBatch batch) {
    LongVector ids = (LongVector) batch.column("id");
    DoubleVector values = (DoubleVector) batch.column("value");
    BinaryVector names = (BinaryVector) batch.column("name");
    for (int r = 0; r < batch.rowCount(); r++) {
      int i = (int) (batch.firstRow() + r);
      assertThat(ids.get(r)).isEqualTo(i);
      assertThat(values.isNull(r)).as("value %s is null", i).isEqualTo(i % 11 == 0);
      if (i % 11 != 0) {
        assertThat(values.get(r)).isEqualTo(i * 1.25);
      }
      assertThat(names.isNull(r)).as("name %s is null", i).isEqualTo(i % 7 == 0);
      if (i % 7 != 0) {
        assertThat(names.getString(r)).isEqualTo("name-" + (i % 1000));
      }
    }
  }
}
