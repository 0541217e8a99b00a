package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpBenchmarkTest {

  /** Scan k of the JVM took k seconds: the CLI reports scans 2 to 16 after its warm-up scan 1. */
  private static List<Double> scansTwoToSixteen() {
    List<Double> seconds = new ArrayList<>();
    for (int scan = 2; scan <= 16; scan++) {
      seconds.add((double) scan);
    }
    return seconds;
  }

  @Test
  void theSecondScanIsTheFirstMeasuredAndTheSteadyStateTheMedianOfScansElevenToFifteen() {
    WarmUpBenchmark.Process p = WarmUpBenchmark.Process.of(scansTwoToSixteen());
    assertThat(p.second()).isEqualTo(2.0);
    assertThat(p.steady()).isEqualTo(13.0);
    assertThat(p.ratio()).isEqualTo(2.0 / 13.0);
  }

  @Test
  void fewerThanFifteenMeasuredScansAreRefused() {
    assertThatThrownBy(() -> WarmUpBenchmark.Process.of(scansTwoToSixteen().subList(0, 14)))
        .hasMessageContaining("expected 15 measured scans, got 14");
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(WarmUpBenchmark.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(WarmUpBenchmark.median(new double[] {5, 1, 3})).isEqualTo(3.0);
  }
}
