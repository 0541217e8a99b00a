package dev.prefetch.parquet;

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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * INT96 timestamps as Spark, Impala and Hive write them: 8 bytes of nanoseconds of the day and a
 * signed 4-byte Julian day, little endian. They map to microseconds since the epoch (as Spark and
 * DuckDB read them) over every year, or to nanoseconds when asked.
 */
@Timeout(60)
class Int96TimestampTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType("message m { required int32 id; optional int96 ts; }");
  static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

  @TempDir Path dir;

  static final LocalDateTime[] TIMES = {
    LocalDateTime.of(1, 1, 1, 0, 0),
    LocalDateTime.of(1582, 10, 4, 12, 30, 1, 1_000),
    LocalDateTime.of(1677, 9, 21, 0, 12, 43, 145_224_192),
    LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
    LocalDateTime.of(1970, 1, 1, 0, 0),
    LocalDateTime.of(2024, 2, 29, 8, 15, 0, 123_456_000),
    LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_000),
    LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
  };

  static Binary int96(long julianDay, long nanosOfDay) {
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(nanosOfDay).putInt((int) julianDay);
    return Binary.fromConstantByteArray(b.array());
  }

  static Binary int96(LocalDateTime t) {
    long day = t.toLocalDate().toEpochDay() + JULIAN_DAY_OF_EPOCH;
    return int96(day, t.toLocalTime().toNanoOfDay());
  }

  /** Microseconds of the day's start plus whole microseconds of the day (sub-micros dropped). */
  static long micros(LocalDateTime t) {
    return t.toLocalDate().toEpochDay() * 86_400_000_000L + t.toLocalTime().toNanoOfDay() / 1000;
  }

  private Path write(String name, List<Binary> values) throws IOException {
    return ParquetTestFiles.write(
        dir.resolve(name),
        SCHEMA,
        values.size(),
        ParquetTestFiles.WriteSpec.defaults().codec(CompressionCodecName.UNCOMPRESSED),
        (i, g) -> {
          g.add("id", i);
          if (values.get(i) != null) {
            g.add("ts", values.get(i));
          }
        });
  }

  private static List<Long> read(Path file, ReadOptions options, DataType[] type)
      throws IOException {
    List<Long> out = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, options, context)) {
      type[0] = reader.schema().field(1).type();
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        LongVector ts = (LongVector) batch.column(1);
        for (int r = 0; r < batch.rowCount(); r++) {
          out.add(ts.isNull(r) ? null : ts.get(r));
        }
      }
    }
    return out;
  }

  @Test
  void int96MapsToMicrosecondsOverEveryYearWithASignedJulianDay() throws IOException {
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (LocalDateTime t : TIMES) {
      values.add(int96(t));
      expected.add(micros(t));
    }
    values.add(null);
    expected.add(null);
    // Julian day -1 (4714 BC): a signed day, far outside what nanoseconds since 1970 can hold
    values.add(int96(-1, 1_000));
    expected.add((-1 - JULIAN_DAY_OF_EPOCH) * 86_400_000_000L + 1);
    DataType[] type = new DataType[1];
    assertThat(read(write("int96.parquet", values), ReadOptions.defaults(), type))
        .isEqualTo(expected);
    assertThat(type[0]).isEqualTo(DataType.timestamp(DataType.TimeUnit.MICROS, true));
  }

  /** Microseconds and nanoseconds per day. */
  static final long MICROS_PER_DAY = 86_400_000_000L;

  static final long NANOS_PER_DAY = MICROS_PER_DAY * 1000;

  /**
   * {@code micros} as Spark writes it: the day rounded towards zero from the Julian epoch,
   * nanoseconds of the day of its sign; null where microseconds since that epoch leave a long (the
   * last 2.4 million days, which Spark cannot write).
   */
  static Binary sparkInt96(long micros) {
    long julianMicros;
    try {
      julianMicros = Math.addExact(micros, JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY);
    } catch (ArithmeticException e) {
      return null;
    }
    return int96(julianMicros / MICROS_PER_DAY, julianMicros % MICROS_PER_DAY * 1000);
  }

  /** {@code micros} with the day floored and nanoseconds of the day in [0, a day). */
  static Binary flooredInt96(long micros) {
    return int96(
        Math.floorDiv(micros, MICROS_PER_DAY) + JULIAN_DAY_OF_EPOCH,
        Math.floorMod(micros, MICROS_PER_DAY) * 1000);
  }

  /**
   * Every value whose microseconds fit in a long reads exactly, whichever way its day is rounded:
   * Spark's (towards zero, a negative time of day before the Julian epoch, here about 226,000 BC)
   * and the floored one, whose day's product alone leaves a long within a day of its end (the
   * conversion failed there with "long overflow" before).
   */
  @Test
  void everyValueWhoseMicrosecondsFitALongReadsExactly() throws IOException {
    long[] micros = {
      -7_190_000_000_000_000_123L, // 226,000 BC
      Long.MIN_VALUE,
      Long.MIN_VALUE + 1,
      Long.MIN_VALUE + MICROS_PER_DAY - 1,
      Long.MAX_VALUE,
      Long.MAX_VALUE - MICROS_PER_DAY,
      -(JULIAN_DAY_OF_EPOCH * MICROS_PER_DAY) - 1, // a microsecond before the Julian epoch
      0,
    };
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (long m : micros) {
      if (sparkInt96(m) != null) {
        values.add(sparkInt96(m));
        expected.add(m);
      }
      values.add(flooredInt96(m));
      expected.add(m);
    }
    assertThat(
            read(write("int96-long-ends.parquet", values), ReadOptions.defaults(), new DataType[1]))
        .isEqualTo(expected);
  }

  /**
   * A day beyond what a long of microseconds holds is a corrupt file (no INT96 writer makes one;
   * Arrow C++ and DuckDB wrap it silently), named with the column.
   */
  @Test
  void aValueBeyondALongOfMicrosecondsIsACorruptFileNamingTheColumn() throws IOException {
    long day = Math.floorDiv(Long.MIN_VALUE, MICROS_PER_DAY) + JULIAN_DAY_OF_EPOCH;
    for (Binary beyond : List.of(int96(day - 1, 0), int96(Integer.MAX_VALUE, 0))) {
      Path file = write("int96-beyond-" + beyond.hashCode() + ".parquet", List.of(beyond));
      assertThatThrownBy(() -> read(file, ReadOptions.defaults(), new DataType[1]))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasMessageContaining("column 'ts'")
          .hasMessageContaining("outside the microseconds since the epoch that a long holds");
    }
  }

  /** Nanoseconds: both ends of a long's range read exactly, whichever way the day is rounded. */
  @Test
  void nanosecondsReadExactlyToBothEndsOfALong() throws IOException {
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (long n : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, -1, 0}) {
      values.add(
          int96(
              Math.floorDiv(n, NANOS_PER_DAY) + JULIAN_DAY_OF_EPOCH,
              Math.floorMod(n, NANOS_PER_DAY)));
      expected.add(n);
      // the day rounded towards zero: a negative time of day before 1970
      values.add(int96(n / NANOS_PER_DAY + JULIAN_DAY_OF_EPOCH, n % NANOS_PER_DAY));
      expected.add(n);
    }
    ReadOptions nanos =
        ReadOptions.builder().property(ParquetOptions.INT96_TIMESTAMP_UNIT, "nanos").build();
    assertThat(read(write("int96-nanos-ends.parquet", values), nanos, new DataType[1]))
        .isEqualTo(expected);
  }

  @Test
  void nanosecondsWhenAskedForWithinTheirRange() throws IOException {
    List<Binary> values = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (LocalDateTime t : TIMES) {
      if (t.getYear() > 1677 && t.getYear() < 2262) {
        values.add(int96(t));
        expected.add(ChronoUnit.NANOS.between(LocalDateTime.of(1970, 1, 1, 0, 0), t));
      }
    }
    ReadOptions nanos =
        ReadOptions.builder().property(ParquetOptions.INT96_TIMESTAMP_UNIT, "nanos").build();
    DataType[] type = new DataType[1];
    assertThat(read(write("int96-nanos.parquet", values), nanos, type)).isEqualTo(expected);
    assertThat(type[0]).isEqualTo(DataType.timestamp(DataType.TimeUnit.NANOS, true));
  }

  /**
   * A valid value beyond the years nanoseconds hold, read as nanoseconds: a read error naming the
   * file, the column and the option to change, not a corrupt file.
   */
  @Test
  void nanosecondsOutsideTheirRangeAreAnErrorNamingTheFileAndColumn() throws IOException {
    Path file = write("int96-9999.parquet", List.of(int96(TIMES[TIMES.length - 1])));
    ReadOptions nanos =
        ReadOptions.builder().property(ParquetOptions.INT96_TIMESTAMP_UNIT, "NANOS").build();
    assertThatThrownBy(() -> read(file, nanos, new DataType[1]))
        .isInstanceOf(ReadException.class)
        .isNotInstanceOf(CorruptFileException.class)
        .hasMessageContaining(file.getFileName().toString())
        .hasMessageContaining("column 'ts'")
        .hasMessageContaining("nanoseconds")
        .hasMessageContaining(ParquetOptions.INT96_TIMESTAMP_UNIT + "=micros");
  }

  @Test
  void anUnknownUnitIsRejectedNamingTheKey() throws IOException {
    Path file = write("int96-bad-option.parquet", List.of(int96(TIMES[0])));
    ReadOptions bad =
        ReadOptions.builder().property(ParquetOptions.INT96_TIMESTAMP_UNIT, "seconds").build();
    assertThatThrownBy(() -> read(file, bad, new DataType[1]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ParquetOptions.INT96_TIMESTAMP_UNIT)
        .hasMessageContaining("seconds");
  }
}
