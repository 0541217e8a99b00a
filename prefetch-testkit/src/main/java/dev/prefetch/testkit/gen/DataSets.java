package dev.prefetch.testkit.gen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Generated files that are kept between runs: a file is written once and reused as long as the
 * stamp beside it ({@code FILE.spec}) records the same generation parameters.
 */
public final class DataSets {

  private DataSets() {}

  /**
   * Makes sure {@code file} holds the table of {@code spec}; returns true when it had to be
   * written. The file is written under a temporary name and moved into place, so an interrupted run
   * never leaves a partial file that looks complete. Callers make sure no two threads ensure the
   * same file at once.
   */
  public static boolean ensure(GenSpec spec, Path file) throws IOException {
    Path stamp = file.resolveSibling(file.getFileName() + ".spec");
    if (Files.isRegularFile(file)
        && Files.isRegularFile(stamp)
        && Files.readString(stamp, StandardCharsets.UTF_8).equals(spec.fingerprint())) {
      return false;
    }
    Files.deleteIfExists(stamp);
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Generator.write(spec, partial);
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(stamp, spec.fingerprint(), StandardCharsets.UTF_8);
    return true;
  }
}
