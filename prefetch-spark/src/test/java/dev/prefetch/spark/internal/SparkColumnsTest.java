package dev.prefetch.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DataType.TimeUnit;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.junit.jupiter.api.Test;

/** The wrappers read our arrays as Spark reads its own columns, value for value. */
class SparkColumnsTest {

  private static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  @Test
  void timestampsInEveryUnitBecomeMicrosecondsRoundedDown() {
    Instant before = Instant.parse("1969-12-31T23:59:59.999999999Z");
    long nanos = ChronoUnit.NANOS.between(Instant.EPOCH, before);
    ColumnVector n =
        SparkColumns.wrap(
            new LongVector(DataType.timestamp(TimeUnit.NANOS, true), 1, new long[] {nanos}, null),
            DataTypes.TimestampType);
    assertThat(n.getLong(0)).isEqualTo(-1L);
    ColumnVector ms =
        SparkColumns.wrap(
            new LongVector(
                DataType.timestamp(TimeUnit.MILLIS, false),
                2,
                new long[] {-1, 1_700_000_000_123L},
                null),
            DataTypes.TimestampNTZType);
    assertThat(ms.getLong(0)).isEqualTo(-1000L);
    assertThat(ms.getLong(1)).isEqualTo(1_700_000_000_123_000L);
  }

  @Test
  void localDateTimesReadAsInstantsArePlacedInTheJvmZone() {
    LocalDateTime wall = LocalDateTime.parse("2024-07-01T12:00:00.000001");
    long wallAsUtc = micros(wall.toInstant(ZoneOffset.UTC));
    LongVector local =
        new LongVector(DataType.timestamp(TimeUnit.MICROS, false), 1, new long[] {wallAsUtc}, null);
    ZoneId losAngeles = ZoneId.of("America/Los_Angeles");
    assertThat(SparkColumns.wrap(local, DataTypes.TimestampType, losAngeles).getLong(0))
        .isEqualTo(micros(wall.atZone(losAngeles).toInstant()));
    assertThat(SparkColumns.wrap(local, DataTypes.TimestampNTZType, losAngeles).getLong(0))
        .isEqualTo(wallAsUtc);
    assertThat(SparkColumns.wrap(local, DataTypes.TimestampType, ZoneOffset.UTC).getLong(0))
        .isEqualTo(wallAsUtc);
  }

  @Test
  void decimalsKeepTheirValueForLongAndByteBackedVectors() {
    DecimalVector small =
        DecimalVector.ofLongs(
            DataType.decimal(9, 2), 2, new long[] {-12345, 99}, new boolean[] {false, true});
    ColumnVector s = SparkColumns.wrap(small, DataTypes.createDecimalType(9, 2));
    assertThat(s.getDecimal(0, 9, 2).toJavaBigDecimal()).isEqualByComparingTo("-123.45");
    assertThat(s.isNullAt(1)).isTrue();
    assertThat(s.getDecimal(1, 9, 2)).isNull();
    assertThat(s.hasNull()).isTrue();
    assertThat(s.numNulls()).isEqualTo(1);
    byte[] big = new BigInteger("-123456789012345678901234567890").toByteArray();
    DecimalVector wide =
        DecimalVector.ofBytes(DataType.decimal(38, 6), 1, big, new int[] {0, big.length}, null);
    ColumnVector w = SparkColumns.wrap(wide, DataTypes.createDecimalType(38, 6));
    assertThat(w.getDecimal(0, 38, 6).toJavaBigDecimal())
        .isEqualByComparingTo(new BigDecimal(new BigInteger("-123456789012345678901234567890"), 6));
    assertThat(w.hasNull()).isFalse();
  }

  @Test
  void stringsAreViewsOfTheByteBufferAndBinaryIsCopied() {
    byte[] data = "abc\u00e9z".getBytes(StandardCharsets.UTF_8);
    BinaryVector strings = new BinaryVector(DataType.string(), 2, data, new int[] {0, 3, 6}, null);
    ColumnVector s = SparkColumns.wrap(strings, DataTypes.StringType);
    assertThat(s.getUTF8String(0).toString()).isEqualTo("abc");
    assertThat(s.getUTF8String(1).toString()).isEqualTo("\u00e9z");
    assertThat(s.getUTF8String(1).getBaseObject()).isSameAs(data);
    ColumnVector b = SparkColumns.wrap(strings, DataTypes.BinaryType);
    assertThat(b.getBinary(0)).containsExactly('a', 'b', 'c').isNotSameAs(data);
  }

  @Test
  void aPairWithoutAFaithfulConversionIsRefusedNamingBothTypes() {
    IntVector ints = new IntVector(DataType.int32(), 1, new int[] {1}, null);
    assertThat(SparkColumns.convertible(DataType.int32(), DataTypes.LongType)).isFalse();
    assertThatThrownBy(() -> SparkColumns.wrap(ints, DataTypes.LongType))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("int32")
        .hasMessageContaining("bigint");
  }
}
