package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timestamps keep their wall clock, and timestamps with local time zone their instant, whatever the
 * time zones of the writing and the reading JVM.
 */
class OrcTimestampTest {

  private static final List<LocalDateTime> WALL_CLOCKS =
      List.of(
          LocalDateTime.of(1970, 1, 1, 0, 0),
          LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
          LocalDateTime.of(2024, 7, 14, 13, 45, 12, 123_456_789),
          LocalDateTime.of(1900, 3, 1, 8, 0, 0, 1),
          LocalDateTime.of(2262, 4, 11, 0, 0));

  /**
   * Instants avoid the last second before the epoch, where orc-core itself returns a value one
   * second late for a fraction of a second (its reader and ours agree there too; see the parity
   * tests).
   */
  private static final List<Instant> INSTANTS =
      List.of(
          Instant.EPOCH,
          Instant.parse("1969-12-31T23:59:58.000000001Z"),
          Instant.parse("2024-07-14T13:45:12.123456789Z"),
          Instant.parse("1900-03-01T08:00:00.000000001Z"),
          Instant.parse("2262-04-11T00:00:00Z"));

  @TempDir Path dir;

  @Test
  void wallClockAndInstantSurviveAWriterAndReaderInOtherZones() throws IOException {
    TimeZone original = TimeZone.getDefault();
    Path file = dir.resolve("timestamps.orc");
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
      write(file);
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
      List<Object> ours = new ArrayList<>();
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader =
              Readers.open(file, ReadOptions.builder().batchSize(2).build(), context)) {
        assertThat(reader.schema().field(0).type())
            .isEqualTo(DataType.timestamp(DataType.TimeUnit.NANOS, false));
        assertThat(reader.schema().field(1).type())
            .isEqualTo(DataType.timestamp(DataType.TimeUnit.NANOS, true));
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          for (int r = 0; r < batch.rowCount(); r++) {
            long wall = ((LongVector) batch.column(0)).get(r);
            long instant = ((LongVector) batch.column(1)).get(r);
            ours.add(
                LocalDateTime.ofEpochSecond(
                    Math.floorDiv(wall, 1_000_000_000L),
                    (int) Math.floorMod(wall, 1_000_000_000L),
                    ZoneOffset.UTC));
            ours.add(Instant.ofEpochSecond(0, instant));
          }
        }
      }
      List<Object> expected = new ArrayList<>();
      for (int i = 0; i < WALL_CLOCKS.size(); i++) {
        expected.add(WALL_CLOCKS.get(i));
        expected.add(INSTANTS.get(i));
      }
      assertThat(ours).isEqualTo(expected);
      // orc-core's own reader, in the reading zone, agrees.
      assertThat(Rows.reference(file, List.of(), null, new Configuration(), null))
          .extracting(Rows.Row::values)
          .flatExtracting(values -> values)
          .isEqualTo(expected);
    } finally {
      TimeZone.setDefault(original);
    }
  }

  /**
   * A valid timestamp beyond what nanoseconds since the epoch hold (year 9999) is no corrupt file:
   * the read fails with a {@link ReadException} naming the file and the column and saying which
   * years fit, not with the arithmetic's overflow.
   */
  @Test
  void aTimestampBeyondTheYearsNanosecondsHoldFailsNamingFileAndColumn() throws IOException {
    Path file = dir.resolve("year-9999.orc");
    TypeDescription schema = TypeDescription.fromString("struct<id:int,ts:timestamp>");
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema).overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      ((TimestampColumnVector) batch.cols[1])
          .set(0, Timestamp.valueOf(LocalDateTime.of(9999, 12, 31, 23, 59, 59)));
      batch.size = 1;
      writer.addRowBatch(batch);
    }
    for (boolean prefetch : new boolean[] {false, true}) {
      assertThatThrownBy(
              () -> {
                try (ReadContext context = ReadContext.defaults();
                    BatchReader reader =
                        Readers.open(
                            file,
                            ReadOptions.builder().prefetchEnabled(prefetch).minReadBytes(0).build(),
                            context)) {
                  while (reader.next() != null) {
                    // read to the end
                  }
                }
              })
          .isInstanceOf(ReadException.class)
          .isNotInstanceOf(CorruptFileException.class)
          .hasMessageContaining("year-9999.orc")
          .hasMessageContaining("column 'ts'")
          .hasMessageContaining("outside the years 1677 to 2262")
          .satisfies(
              e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                  assertThat(t).isNotInstanceOf(ArithmeticException.class);
                }
              });
    }
  }

  private static void write(Path file) throws IOException {
    TypeDescription schema =
        TypeDescription.fromString("struct<ts:timestamp,tsz:timestamp with local time zone>");
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema).overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      TimestampColumnVector wall = (TimestampColumnVector) batch.cols[0];
      TimestampColumnVector instant = (TimestampColumnVector) batch.cols[1];
      for (int i = 0; i < WALL_CLOCKS.size(); i++) {
        wall.set(i, Timestamp.valueOf(WALL_CLOCKS.get(i)));
        instant.set(i, Timestamp.from(INSTANTS.get(i)));
      }
      batch.size = WALL_CLOCKS.size();
      writer.addRowBatch(batch);
    }
  }
}
