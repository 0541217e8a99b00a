package dev.prefetch.it.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file of any module is longer than 400 lines: a class that grows past that is doing
 * more than one job and is split, the way the exchange and the Parquet planner were.
 */
class MainClassSizeTest {

  private static final int MAX_LINES = 400;

  /** The repository root: this module's parent directory. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void everyMainSourceFileHasAtMost400Lines() throws IOException {
    List<Path> sources;
    try (Stream<Path> files = Files.walk(ROOT)) {
      sources =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
              .filter(p -> p.contains("/src/main/") && !p.contains("/target/"))
              .map(ROOT::resolve)
              .toList();
    }
    assertThat(sources).as("main sources under " + ROOT).hasSizeGreaterThan(100);
    List<String> tooLong =
        sources.stream()
            .filter(p -> lines(p) > MAX_LINES)
            .map(p -> ROOT.relativize(p) + " (" + lines(p) + " lines)")
            .toList();
    assertThat(tooLong).isEmpty();
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
