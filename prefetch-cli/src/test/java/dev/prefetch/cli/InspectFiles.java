package dev.prefetch.cli;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.prefetch.testkit.gen.GenSpec;
import dev.prefetch.testkit.gen.Generator;
import java.io.IOException;
import java.nio.file.Path;

/** Small generated files of both formats for the inspection commands' tests. */
final class InspectFiles {

  final Path scanParquet;
  final Path scanOrc;
  final Path nestedParquet;
  final Path nestedOrc;

  private InspectFiles(Path dir) {
    scanParquet = dir.resolve("scan.parquet");
    scanOrc = dir.resolve("scan.orc");
    nestedParquet = dir.resolve("nested.parquet");
    nestedOrc = dir.resolve("nested.orc");
  }

  @GuardedBy("InspectFiles.class")
  private static InspectFiles shared;

  /**
   * The files, written once per test JVM into a temporary directory removed at exit (the test
   * classes only read them).
   */
  static synchronized InspectFiles shared() throws IOException {
    if (shared == null) {
      Path dir = java.nio.file.Files.createTempDirectory("prefetch-inspect");
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
                      paths
                          .sorted(java.util.Comparator.reverseOrder())
                          .forEach(p -> p.toFile().delete());
                    } catch (IOException e) {
                      // a temporary directory left behind
                    }
                  }));
      shared = write(dir);
    }
    return shared;
  }

  /** Writes 3,000 scan rows and 1,200 nested rows per format, in 3 row groups / stripes. */
  static InspectFiles write(Path dir) throws IOException {
    InspectFiles f = new InspectFiles(dir);
    Generator.write(spec("parquet", GenSpec.Kind.SCAN, 3_000, "zstd"), f.scanParquet);
    Generator.write(spec("orc", GenSpec.Kind.SCAN, 3_000, "zstd"), f.scanOrc);
    Generator.write(spec("parquet", GenSpec.Kind.NESTED, 1_200, "snappy"), f.nestedParquet);
    Generator.write(spec("orc", GenSpec.Kind.NESTED, 1_200, "snappy"), f.nestedOrc);
    return f;
  }

  private static GenSpec spec(String format, GenSpec.Kind kind, long rows, String codec) {
    return GenSpec.inRowGroups(format, kind, rows, 3, 8 << 10, codec, 31);
  }
}
