package dev.prefetch.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.LongVector;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON encoding of the values the generated files do not hold, checked both ways. */
class ValueEncodingTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static List<JsonNode> encode(ColumnVector vector) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    for (int i = 0; i < vector.size(); i++) {
      StringWriter text = new StringWriter();
      try (JsonGenerator gen = new JsonFactory().createGenerator(text)) {
        ValueEncoding.write(gen, vector, i);
      }
      nodes.add(MAPPER.readTree(text.toString()));
    }
    return nodes;
  }

  private static void roundTrips(ColumnVector vector) throws IOException {
    List<JsonNode> nodes = encode(vector);
    for (int i = 0; i < vector.size(); i++) {
      assertThat(JsonValues.decode(nodes.get(i), vector.type()))
          .as("value %d: %s", i, nodes.get(i))
          .isEqualTo(JsonValues.normalize(vector.getObject(i)));
    }
  }

  @Test
  void nanAndInfinitiesAreSpelledOutAndNegativeZeroKeepsItsSign() throws IOException {
    DoubleVector doubles =
        new DoubleVector(
            DataType.float64(),
            6,
            new double[] {
              Double.NaN,
              Double.POSITIVE_INFINITY,
              Double.NEGATIVE_INFINITY,
              -0.0,
              Double.MIN_VALUE,
              0
            },
            new boolean[] {false, false, false, false, false, true});
    assertThat(encode(doubles).toString())
        .isEqualTo("[\"NaN\", \"Infinity\", \"-Infinity\", -0.0, 4.9E-324, null]");
    roundTrips(doubles);
    FloatVector floats =
        new FloatVector(
            DataType.float32(), 3, new float[] {Float.NaN, Float.NEGATIVE_INFINITY, 0.1f}, null);
    assertThat(encode(floats).toString()).isEqualTo("[\"NaN\", \"-Infinity\", 0.1]");
    roundTrips(floats);
  }

  @Test
  void timestampsKeepTheirUnitAndZone() throws IOException {
    LongVector millis =
        new LongVector(
            DataType.timestamp(DataType.TimeUnit.MILLIS, true), 2, new long[] {0, -1}, null);
    assertThat(encode(millis).toString())
        .isEqualTo("[\"1970-01-01T00:00:00.000Z\", \"1969-12-31T23:59:59.999Z\"]");
    roundTrips(millis);
    LongVector nanos =
        new LongVector(
            DataType.timestamp(DataType.TimeUnit.NANOS, false),
            1,
            new long[] {1_700_000_000_123_456_789L},
            null);
    assertThat(encode(nanos).toString()).isEqualTo("[\"2023-11-14T22:13:20.123456789\"]");
    roundTrips(nanos);
    LongVector time =
        new LongVector(
            DataType.time(DataType.TimeUnit.MICROS, false), 1, new long[] {45_296_000_007L}, null);
    assertThat(encode(time).toString()).isEqualTo("[\"12:34:56.000007\"]");
    roundTrips(time);
  }

  @Test
  void decimalsAreStringsWithTheirScaleAndBinaryIsBase64() throws IOException {
    DecimalVector big =
        DecimalVector.ofBytes(
            DataType.decimal(38, 3),
            2,
            concat(
                new BigInteger("-123456789012345678901234567890").toByteArray(),
                BigInteger.valueOf(5).toByteArray()),
            new int[] {
              0,
              new BigInteger("-123456789012345678901234567890").toByteArray().length,
              new BigInteger("-123456789012345678901234567890").toByteArray().length + 1
            },
            null);
    assertThat(encode(big).toString())
        .isEqualTo("[\"-123456789012345678901234567.890\", \"0.005\"]");
    roundTrips(big);
    BinaryVector bytes =
        new BinaryVector(
            DataType.fixedBinary(2),
            2,
            new byte[] {(byte) 0xff, 0, 1, 2},
            new int[] {0, 2, 4},
            null);
    assertThat(encode(bytes).toString()).isEqualTo("[\"/wA=\", \"AQI=\"]");
    roundTrips(bytes);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = new byte[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
