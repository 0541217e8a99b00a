package dev.prefetch.parquet.internal;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packages of the Parquet reader depend in one direction only, along the read. The decoding
 * stages: {@code page} on none of the others, {@code flat} on {@code page}, {@code nested} on both.
 * The footer on the Thrift cursor. The bytes a read fetches ({@code io}) below the page checks
 * ({@code check}), which the codecs and the page indexes use; the parts of a plan ({@code plan})
 * above those. None of them depends on {@code internal} itself, where the planner, the file plan
 * and the range reader put them together.
 */
class ReadPathPackagesTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/prefetch/parquet/internal");
  private static final String PARQUET = "dev.prefetch.parquet.";
  private static final String INTERNAL = PARQUET + "internal.";

  /** The module's public package, {@code dev.prefetch.parquet}, in {@link #MAY_USE}. */
  private static final String API = "api";

  /** Each package below {@code internal}, and the others of the module it may use. */
  private static final Map<String, Set<String>> MAY_USE =
      Map.ofEntries(
          entry("page", Set.of()),
          entry("thrift", Set.of()),
          entry("compat", Set.of()),
          entry("flat", Set.of("page")),
          entry("nested", Set.of("page", "flat")),
          entry("footer", Set.of("thrift")),
          entry("io", Set.of()),
          entry("check", Set.of("io", "thrift")),
          entry("codec", Set.of("check")),
          entry("index", Set.of("io", "check")),
          entry("plan", Set.of("io", "index", "compat", API)));

  /** A name of the module in code: a class of the public package or of an internal one. */
  private static final Pattern MODULE_NAME =
      Pattern.compile("\\bdev\\.prefetch\\.parquet\\.[A-Za-z_][\\w.]*");

  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

  static Stream<String> packages() {
    return new TreeSet<>(MAY_USE.keySet()).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("packages")
  void aPackageUsesOnlyThePackagesBelowIt(String pkg) throws IOException {
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
      for (Path file : files.toList()) {
        String code = COMMENT.matcher(Files.readString(file)).replaceAll("");
        Matcher names = MODULE_NAME.matcher(code);
        while (names.find()) {
          String name = names.group();
          String used = packageOf(name);
          if (!used.equals(pkg) && !MAY_USE.get(pkg).contains(used)) {
            violations.add(file.getFileName() + " uses " + name + " (" + used + ")");
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void everyPackageBelowInternalHasItsPlace() throws IOException {
    Set<String> found = new TreeSet<>();
    try (Stream<Path> entries = Files.list(SOURCES)) {
      entries.filter(Files::isDirectory).forEach(d -> found.add(d.getFileName().toString()));
    }
    assertThat(found).isEqualTo(new TreeSet<>(MAY_USE.keySet()));
  }

  /**
   * The package below {@code internal} that {@code name} is in, {@code "internal"} for the package
   * itself, {@link #API} for the public one.
   */
  private static String packageOf(String name) {
    if (!name.startsWith(INTERNAL)) {
      return name.equals(PARQUET + "internal") ? "internal" : API;
    }
    String rest = name.substring(INTERNAL.length());
    int dot = rest.indexOf('.');
    String first = dot < 0 ? rest : rest.substring(0, dot);
    return Character.isUpperCase(first.charAt(0)) ? "internal" : first;
  }
}
