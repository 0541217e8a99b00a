package dev.prefetch.conformance;

import dev.prefetch.ReadOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance corpus, written once per test class into a temporary folder, with its files as
 * the source of parameterized tests ({@code @MethodSource("files")}) and the read options that
 * every test of it reads with.
 */
abstract class CorpusFilesTest {

  @TempDir static Path dir;

  static List<CorpusFile> corpus;

  @BeforeAll
  static void writeCorpus() throws Exception {
    corpus = Corpus.write(dir);
  }

  static Stream<CorpusFile> files() {
    return corpus.stream();
  }

  /**
   * Two producers and small batches, so that batches and ranges are many (and a reused root
   * refilled).
   */
  static ReadOptions smallBatches() {
    return ReadOptions.builder()
        .parallelism(2)
        .batchSize(64)
        .property(ReadOptions.PREFETCH_MIN_READ_BYTES, "0")
        .build();
  }
}
