package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.DateColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dates before the Gregorian switch of 1582 in a file written in the proleptic Gregorian calendar
 * read as orc-core reads them: moved to the hybrid Julian-Gregorian calendar by default, kept
 * proleptic with {@code orc.proleptic.gregorian}; those of a file written in the hybrid calendar
 * are read as they are. Timestamps that nanoseconds since the epoch hold (1677 on) all lie after
 * the switch, so the calendar leaves them alone.
 */
class OrcCalendarTest {

  private static final TypeDescription SCHEMA =
      TypeDescription.fromString(
          "struct<id:bigint,d:date,ts:timestamp,tz:timestamp with local time zone>");

  @TempDir Path dir;

  /** Days from year 1 to 2100, some null; timestamps from 1700 on. */
  private Path write(String name, boolean proleptic) throws IOException {
    Path file = dir.resolve(name);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(SCHEMA)
                .setProlepticGregorian(proleptic)
                .rowIndexStride(1000)
                .useUTCTimestamp(true))) {
      VectorizedRowBatch batch = SCHEMA.createRowBatch(1000);
      LongColumnVector id = (LongColumnVector) batch.cols[0];
      DateColumnVector d = (DateColumnVector) batch.cols[1];
      TimestampColumnVector ts = (TimestampColumnVector) batch.cols[2];
      TimestampColumnVector tz = (TimestampColumnVector) batch.cols[3];
      d.changeCalendar(proleptic, false);
      ts.changeCalendar(proleptic, false);
      tz.changeCalendar(proleptic, false);
      int rows = 3000;
      for (int r = 0; r < rows; ) {
        batch.reset();
        for (int i = 0; i < batch.getMaxSize() && r < rows; i++, r++) {
          id.vector[i] = r;
          long day = -719_162L + r * 250L - (r % 7 == 0 ? 0 : 141_428L); // year 1 onwards
          if (r % 11 == 0) {
            d.noNulls = false;
            d.isNull[i] = true;
          } else {
            d.vector[i] = day;
          }
          long millis = (-98_000L + r * 60L) * 86_400_000L + r * 1_001L; // 1701 onwards
          ts.time[i] = millis;
          ts.nanos[i] = (int) Math.floorMod(millis, 1000L) * 1_000_000 + r % 1000;
          tz.time[i] = millis;
          tz.nanos[i] = ts.nanos[i];
        }
        batch.size = batch.getMaxSize();
        writer.addRowBatch(batch);
      }
    }
    return file;
  }

  /** Our values: id, day, and both timestamps as nanoseconds since the epoch (null for null). */
  private static List<List<Long>> ours(Path file, ReadOptions options) throws IOException {
    List<List<Long>> rows = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int i = 0; i < batch.rowCount(); i++) {
          List<Long> row = new ArrayList<>();
          row.add(((LongVector) batch.column(0)).get(i));
          IntVector day = (IntVector) batch.column(1);
          row.add(day.isNull(i) ? null : (long) day.get(i));
          row.add(((LongVector) batch.column(2)).get(i));
          row.add(((LongVector) batch.column(3)).get(i));
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /**
   * orc-core's values, read with the UTC option as the read path reads: the day, and each
   * timestamp's second (its milliseconds less those of its nanoseconds) and nanoseconds.
   */
  private static List<List<Long>> orcCore(Path file, Configuration conf) throws IOException {
    List<List<Long>> rows = new ArrayList<>();
    try (Reader reader =
            OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.readerOptions(conf).useUTCTimestamp(true));
        RecordReader records = reader.rows()) {
      VectorizedRowBatch batch = SCHEMA.createRowBatch(1000);
      while (records.nextBatch(batch)) {
        LongColumnVector id = (LongColumnVector) batch.cols[0];
        LongColumnVector d = (LongColumnVector) batch.cols[1];
        TimestampColumnVector ts = (TimestampColumnVector) batch.cols[2];
        TimestampColumnVector tz = (TimestampColumnVector) batch.cols[3];
        for (int i = 0; i < batch.size; i++) {
          List<Long> row = new ArrayList<>();
          row.add(id.vector[i]);
          row.add(!d.noNulls && d.isNull[i] ? null : d.vector[i]);
          row.add(nanos(ts, i));
          row.add(nanos(tz, i));
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static long nanos(TimestampColumnVector v, int i) {
    return (v.time[i] - v.nanos[i] / 1_000_000) * 1_000_000L + v.nanos[i];
  }

  @Test
  void aProlepticFilesDatesAndTimestampsBeforeTheSwitchMoveToTheHybridCalendarAsInOrcCore()
      throws IOException {
    Path file = write("proleptic.orc", true);
    List<List<Long>> ours = ours(file, ReadOptions.defaults());
    assertThat(ours).isEqualTo(orcCore(file, new Configuration()));
    assertThat(ours).hasSize(3000);
  }

  @Test
  void orcProlepticGregorianKeepsThemProleptic() throws IOException {
    Path file = write("kept.orc", true);
    Configuration conf = new Configuration();
    conf.setBoolean("orc.proleptic.gregorian", true);
    List<List<Long>> kept =
        ours(file, ReadOptions.builder().property("orc.proleptic.gregorian", "true").build());
    assertThat(kept).isEqualTo(orcCore(file, conf));
    assertThat(kept).isNotEqualTo(ours(file, ReadOptions.defaults()));
  }

  @Test
  void aHybridFilesDatesAndTimestampsReadAsTheyAre() throws IOException {
    Path file = write("hybrid.orc", false);
    assertThat(ours(file, ReadOptions.defaults())).isEqualTo(orcCore(file, new Configuration()));
  }
}
