package dev.prefetch.parquet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The read path's stages depend in one direction only: {@code page} on none of the others, {@code
 * flat} on {@code page}, {@code nested} on both, and none of them on the range reader's package.
 */
class ReadPathPackagesTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/prefetch/parquet/internal");
  private static final String INTERNAL = "dev.prefetch.parquet.internal.";

  @ParameterizedTest(name = "{0} uses only {1}")
  @CsvSource({"page, ''", "flat, page", "nested, page flat"})
  void aStageImportsOnlyTheStagesBelowIt(String stage, String allowed) throws IOException {
    List<String> allowedPrefixes = new ArrayList<>();
    for (String below : allowed.split(" ")) {
      if (!below.isEmpty()) {
        allowedPrefixes.add(INTERNAL + below + ".");
      }
    }
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES.resolve(stage))) {
      for (Path file : files.toList()) {
        for (String line : Files.readAllLines(file)) {
          if (!line.startsWith("import ")) {
            continue;
          }
          String imported = line.substring("import ".length()).replace(";", "").trim();
          boolean inReadPath = imported.startsWith("dev.prefetch.parquet.");
          boolean allowedImport =
              allowedPrefixes.stream().anyMatch(imported::startsWith)
                  || imported.startsWith(INTERNAL + stage + ".");
          if (inReadPath && !allowedImport) {
            violations.add(file.getFileName() + ": " + imported);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
