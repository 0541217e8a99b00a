package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark runs once, tiny, as a test, so that it cannot rot; no timing is asserted. */
class FooterIndexBenchmarkTest {

  @TempDir Path dir;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void benchmarkChecksValuesAndMeasuresEveryPathOnASmallFile() throws Exception {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    FooterIndexBenchmark benchmark =
        new FooterIndexBenchmark(
            24,
            6,
            10,
            2,
            dir.resolve("bench.parquet"),
            new PrintStream(output, true, StandardCharsets.UTF_8));

    FooterIndexBenchmark.Result result = benchmark.run();

    String printed = output.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("values equal on row group 3", "cold speedup", "warm speedup");
    assertThat(result.medianNanos())
        .containsOnlyKeys(FooterIndexBenchmark.MEASURES.toArray(String[]::new));
    assertThat(result.medianNanos().values()).allMatch(nanos -> nanos > 0);
    assertThat(result.rowGroupsDecodedWarm()).isEqualTo(1);
    assertThat(result.indexBytes()).isLessThan(result.footerBytes());
  }
}
