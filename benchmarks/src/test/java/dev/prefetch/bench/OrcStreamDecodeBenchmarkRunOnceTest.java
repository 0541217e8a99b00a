package dev.prefetch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@link OrcStreamDecodeBenchmark} once per stream and codec on a small stream, after its real
 * setup (which checks that ours and orc-core's decoders read the same values), so that it cannot
 * rot between benchmark runs.
 */
@Timeout(120)
class OrcStreamDecodeBenchmarkRunOnceTest {

  @Test
  void everyStreamDecodesToOrcCoresChecksumWithEachCodec() throws Exception {
    for (String codec : new String[] {"NONE", "ZLIB", "ZSTD"}) {
      for (String stream :
          new String[] {"ints-random", "ints-sorted", "ints-narrow", "present", "doubles"}) {
        OrcStreamDecodeBenchmark b = new OrcStreamDecodeBenchmark();
        b.stream = stream;
        b.codec = codec;
        b.values = 100_003;
        b.setUp();
        try {
          assertThat(b.ours()).as("%s %s", stream, codec).isEqualTo(b.orcCore());
        } finally {
          b.tearDown();
        }
      }
    }
  }
}
