package dev.prefetch.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void aResultIsOneLineWithTheFieldsInTheOrderTheyWerePut() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("enabled", true);
    inner.put("parallelism", 4);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("file", "a.parquet");
    line.put("rows", 40000L);
    line.put("prefetch", inner);
    line.put("problem", null);
    line.put("problems", List.of("x", "y"));

    assertThat(Json.write(line))
        .isEqualTo(
            "{\"file\":\"a.parquet\",\"rows\":40000,\"prefetch\":{\"enabled\":true,"
                + "\"parallelism\":4},\"problem\":null,\"problems\":[\"x\",\"y\"]}");
  }

  @Test
  void floatingPointNumbersKeepSixSignificantDigitsWithoutTrailingZeros() {
    assertThat(Json.write(List.of(3.0, 0.5, 0.1234567, 1.5e-5, 123456789.25, -2.0f, 1e20)))
        .isEqualTo("[3,0.5,0.123457,1.5e-05,1.23457e+08,-2,1e+20]");
  }

  @Test
  void notANumberAndInfinityAreWrittenAsNull() {
    assertThat(Json.write(Arrays.asList(Double.NaN, Double.POSITIVE_INFINITY, Float.NaN)))
        .isEqualTo("[null,null,null]");
  }

  @Test
  void quotesBackslashesAndLineBreaksInStringsAreEscaped() {
    assertThat(Json.write(List.of("a\"b\\c\nd\te"))).isEqualTo("[\"a\\\"b\\\\c\\nd\\te\"]");
  }
}
