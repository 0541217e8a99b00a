package dev.prefetch.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import dev.prefetch.cli.PrefetchScan;
import dev.prefetch.parquet.ParquetOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * INT96 timestamps at the ends of what a long holds, written by parquet-java's low-level writer as
 * Spark writes them (the day rounded towards zero from the Julian epoch, a negative time of day
 * before it) and with the day floored: read as microseconds, every value equals the one written and
 * DuckDB's (JDBC) wherever the Julian day is not negative (DuckDB, and Arrow C++, read the day as
 * unsigned; see below); read as nanoseconds, every value in their range equals Arrow C++'s
 * (arrow-dataset, which reads INT96 as nanoseconds). Where a reference cannot hold a value or reads
 * it otherwise, the test says which is right and why, and checks that it still differs.
 */
@Timeout(120)
class Int96ExtremesTest {

  private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType("message m { required int64 id; optional int96 ts; }");

  /**
   * Microseconds since the epoch: the year 226,000 BC (-7.19e18), the ends of a long, the ends of
   * nanoseconds since the epoch (1677 and 2262), before and after the Julian epoch, 0. DuckDB keeps
   * its timestamps within (-2^63 + 1, 2^63 - 1): its infinities take the two outermost values.
   */
  private static final long[] MICROS = {
    -7_190_000_000_000_000_123L,
    Long.MIN_VALUE + 2,
    Long.MIN_VALUE + MICROS_PER_DAY - 1,
    Long.MAX_VALUE - 2,
    Long.MAX_VALUE - MICROS_PER_DAY,
    Long.MIN_VALUE / 1000 + 1,
    Long.MAX_VALUE / 1000,
    -JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY - 1,
    -JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY,
    -1,
    0,
    1_700_000_000_123_456L,
  };

  @TempDir Path dir;

  @Test
  void microsecondsAtTheEndsOfALongAreTheValuesWrittenAndDuckDbsAfterTheJulianEpoch()
      throws Exception {
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (long micros : MICROS) {
      Binary spark = sparkInt96(micros);
      if (spark != null) {
        values.add(spark);
        expected.add(micros);
      }
      values.add(flooredInt96(micros));
      expected.add(micros);
    }
    Path file = write("int96-long-ends.parquet", values);
    List<Long> ours = ours(file, ReadOptions.defaults());
    assertThat(ours).isEqualTo(expected);
    // DuckDB (and Arrow C++, pyarrow 25.0.1 with coerce_int96_timestamp_unit='us') read the
    // Julian day as unsigned: a day before the Julian epoch (4713 BC) becomes one 11 million
    // years on, wrapped in a long. Spark, which writes the day as a signed int, reads it signed,
    // as we do; so does Arrow C++'s own writer write it (pyarrow writes -7.19e18 microseconds and
    // reads back -5.04e18). Elsewhere the three agree.
    List<Long> duckDb = new ArrayList<>();
    for (Binary value : values) {
      duckDb.add(unsignedDayMicros(value));
    }
    assertThat(duckDb(file)).as("DuckDB's microseconds").isEqualTo(duckDb);
    for (int i = 0; i < values.size(); i++) {
      if (julianDay(values.get(i)) >= 0) {
        assertThat(duckDb.get(i))
            .as("DuckDB where the Julian day is not negative")
            .isEqualTo(expected.get(i));
      } else {
        assertThat(duckDb.get(i))
            .as("DuckDB before the Julian epoch")
            .isNotEqualTo(expected.get(i));
      }
    }
    // verify's reference side (parquet-hadoop's values) agrees too
    assertVerifyPasses(file);
  }

  /**
   * As nanoseconds, the values in their range equal Arrow C++'s, to both ends of a long; outside
   * it, ours is a read error naming the file, the column and the option (not a corrupt file), and
   * Arrow C++ wraps (its default unit, not settable through arrow-dataset's scan options, is
   * nanoseconds): the value it returns is not the file's.
   */
  @Test
  void nanosecondsEqualArrowCppsWhereTheyFitAndAreAnErrorWhereTheyDoNot() throws Exception {
    long[] nanos = {
      Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (long n : nanos) {
      values.add(
          int96(
              Math.floorDiv(n, MICROS_PER_DAY * 1000) + JULIAN_DAY_OF_EPOCH,
              Math.floorMod(n, MICROS_PER_DAY * 1000)));
      expected.add(n);
      values.add(
          int96(n / (MICROS_PER_DAY * 1000) + JULIAN_DAY_OF_EPOCH, n % (MICROS_PER_DAY * 1000)));
      expected.add(n);
    }
    Path file = write("int96-nanos-ends.parquet", values);
    ReadOptions asNanos =
        ReadOptions.builder().property(ParquetOptions.INT96_TIMESTAMP_UNIT, "nanos").build();
    assertThat(ours(file, asNanos)).isEqualTo(expected);
    assertThat(arrowCpp(file, asNanos)).as("Arrow C++'s nanoseconds").isEqualTo(expected);

    Path beyond = write("int96-year-9999.parquet", List.of(flooredInt96(253_402_300_799_000_000L)));
    assertThatThrownBy(() -> ours(beyond, asNanos))
        .isInstanceOf(ReadException.class)
        .isNotInstanceOf(CorruptFileException.class)
        .hasMessageContaining("int96-year-9999.parquet")
        .hasMessageContaining("column 'ts'")
        .hasMessageContaining(ParquetOptions.INT96_TIMESTAMP_UNIT + "=micros");
    long arrow = arrowCpp(beyond, asNanos).get(0);
    assertThat(Math.floorDiv(arrow, 1000L))
        .as("Arrow C++ wraps 9999-12-31 in nanoseconds: %s is not the file's value", arrow)
        .isNotEqualTo(253_402_300_799_000_000L);
    assertThat(ours(beyond, ReadOptions.defaults())).containsExactly(253_402_300_799_000_000L);
    assertThat(duckDb(beyond)).containsExactly(253_402_300_799_000_000L);
  }

  /**
   * A day beyond what a long of microseconds holds: a corrupt file for our reader, naming the file
   * and column (no INT96 writer makes such a day).
   */
  @Test
  void aValueBeyondALongOfMicrosecondsIsACorruptFile() throws Exception {
    long day = Math.floorDiv(Long.MIN_VALUE, MICROS_PER_DAY) + JULIAN_DAY_OF_EPOCH - 1;
    Path file = write("int96-beyond.parquet", List.of(int96(day, 0)));
    assertThatThrownBy(() -> ours(file, ReadOptions.defaults()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("int96-beyond.parquet")
        .hasMessageContaining("column 'ts'")
        .hasMessageContaining("outside the microseconds since the epoch that a long holds");
  }

  // ---------------------------------------------------------------------------------- helpers

  /** {@code micros} as Spark writes it; null where Spark's Julian microseconds leave a long. */
  private static Binary sparkInt96(long micros) {
    long julian;
    try {
      julian = Math.addExact(micros, JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY);
    } catch (ArithmeticException e) {
      return null;
    }
    return int96(julian / MICROS_PER_DAY, julian % MICROS_PER_DAY * 1000);
  }

  private static long julianDay(Binary value) {
    return ByteBuffer.wrap(value.getBytes()).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
  }

  /** The microseconds of a reader that takes the Julian day as unsigned and lets a long wrap. */
  private static long unsignedDayMicros(Binary value) {
    ByteBuffer b = ByteBuffer.wrap(value.getBytes()).order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = b.getLong(0);
    long day = b.getInt(8) & 0xFFFF_FFFFL;
    return (day - JULIAN_DAY_OF_EPOCH) * MICROS_PER_DAY + nanosOfDay / 1000;
  }

  private static Binary flooredInt96(long micros) {
    return int96(
        Math.floorDiv(micros, MICROS_PER_DAY) + JULIAN_DAY_OF_EPOCH,
        Math.floorMod(micros, MICROS_PER_DAY) * 1000);
  }

  private static Binary int96(long julianDay, long nanosOfDay) {
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(nanosOfDay).putInt(Math.toIntExact(julianDay));
    return Binary.fromConstantByteArray(b.array());
  }

  private Path write(String name, List<Binary> values) throws IOException {
    Path file = dir.resolve(name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(SCHEMA)
            .withDictionaryEncoding(false)
            .build()) {
      for (int i = 0; i < values.size(); i++) {
        writer.write(groups.newGroup().append("id", (long) i).append("ts", values.get(i)));
      }
    }
    return file;
  }

  private static List<Long> ours(Path file, ReadOptions options) throws IOException {
    List<Long> out = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        LongVector ts = (LongVector) batch.column(1);
        for (int r = 0; r < batch.rowCount(); r++) {
          out.add(ts.get(r));
        }
      }
    }
    return out;
  }

  private static List<Long> duckDb(Path file) throws Exception {
    List<Long> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT epoch_us(ts) FROM read_parquet('" + file + "') ORDER BY id")) {
      while (rs.next()) {
        out.add(rs.getLong(1));
      }
    }
    return out;
  }

  /** Arrow C++'s values of {@code ts} (nanoseconds since the epoch, as arrow-dataset reads). */
  private static List<Long> arrowCpp(Path file, ReadOptions options) throws Exception {
    Schema ours;
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      ours = reader.schema();
    }
    Canonical values = new Canonical(ours.size());
    ArrowReference.read(file, "parquet", ours, values);
    List<Long> out = new ArrayList<>();
    for (List<Object> row : values.column(1)) {
      out.add((Long) row.get(0));
    }
    return out;
  }

  /** The CLI's verify, which reads the file with parquet-hadoop too, finds it equal. */
  private static void assertVerifyPasses(Path file) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int code = PrefetchScan.run(new String[] {"verify", file.toString()}, print, print);
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(printed).isZero();
    assertThat(printed).contains(file + ": OK, ");
  }
}
