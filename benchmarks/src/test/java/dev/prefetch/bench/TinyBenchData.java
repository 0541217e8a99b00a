package dev.prefetch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Points {@link BenchData} at a fresh directory and {@value #ROWS} rows for one test class, so that
 * a benchmark's real setup (with its correctness check) runs in seconds; afterwards the properties
 * are cleared and the directory deleted.
 */
final class TinyBenchData implements BeforeAllCallback, AfterAllCallback {

  /** The rows of every generated table. */
  static final int ROWS = 30000;

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TinyBenchData.class);

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    Path dir = Files.createTempDirectory("bench-data");
    context.getStore(NAMESPACE).put("dir", dir);
    System.setProperty(BenchData.DIR_PROPERTY, dir.toString());
    System.setProperty(BenchData.ROWS_PROPERTY, Integer.toString(ROWS));
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    System.clearProperty(BenchData.DIR_PROPERTY);
    System.clearProperty(BenchData.ROWS_PROPERTY);
    Path dir = context.getStore(NAMESPACE).remove("dir", Path.class);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
