package dev.prefetch.it.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md, the map of the code, names only classes that exist: every class-like name
 * in its inline code ({@code `Exchange`}, {@code `FileSequence.planAhead`}) is a type declared in
 * the repository's sources, or one of the other libraries' types it names on purpose. A class
 * renamed or removed without its map fails here.
 */
class ArchitectureDocTest {

  /** Types of other libraries (and words in names that are not types) the map names on purpose. */
  private static final Set<String> OTHERS =
      Set.of(
          "ArrowReader",
          "Automatic", // Automatic-Module-Name
          "Module",
          "Name",
          "ColumnIndexFilter",
          "Configuration",
          "DataReader",
          "DictionaryProvider",
          "Enabled",
          "ExitOnOutOfMemoryError",
          "FileInputStream",
          "FileMetaData",
          "FilePlanned", // the event dev.prefetch.FilePlanned
          "RangeRead",
          "ProducerBlocked",
          "ConsumerWaited",
          "BatchReleased",
          "CacheLookup",
          "FileSystem",
          "GuardedBy",
          "MiB",
          "KiB",
          "GiB",
          "Object",
          "OrcFile",
          "OutOfMemoryError",
          "ParquetFileReader",
          "Path",
          "ReaderOptions",
          "RecordReaderImpl",
          "RowGroup",
          "RowGroupFilter",
          "SargApplier", // orc-core's row group evaluation
          "FilterFactory", // orc-core's row filter
          "StreamCapabilities",
          "SearchArgument",
          "Subject",
          "System",
          "UserGroupInformation",
          "VectorSchemaRoot",
          "VectorizedRowBatch",
          "ColumnVector",
          "ServiceLoader",
          "OffsetIndex",
          "ColumnIndex");

  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z][A-Za-z0-9_]*)");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
  private static final Pattern CLASS_LIKE = Pattern.compile("[A-Z][A-Za-z0-9]*");

  @Test
  void theArchitectureMapNamesOnlyClassesThatExist() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Set<String> declared = declaredTypes(root);
    assertThat(declared).as("the sources were found").contains("Exchange", "RecordBatch");
    String doc = Files.readString(root.resolve("docs/ARCHITECTURE.md"));
    doc = doc.replaceAll("(?ms)^```.*?^```", ""); // code blocks draw, they do not name
    Set<String> unknown = new TreeSet<>();
    Matcher span = CODE_SPAN.matcher(doc);
    while (span.find()) {
      Matcher ident = IDENTIFIER.matcher(span.group(1));
      while (ident.find()) {
        for (String segment : ident.group().split("\\.")) {
          boolean classLike =
              CLASS_LIKE.matcher(segment).matches() && !segment.equals(segment.toUpperCase());
          if (classLike && !declared.contains(segment) && !OTHERS.contains(segment)) {
            unknown.add(segment);
          }
        }
      }
    }
    assertThat(unknown).as("names in docs/ARCHITECTURE.md that no source declares").isEmpty();
  }

  private static Set<String> declaredTypes(Path root) throws IOException {
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file :
          (Iterable<Path>)
              files
                      .filter(p -> p.toString().endsWith(".java"))
                      .filter(p -> p.toString().contains("/src/"))
                      .filter(p -> !p.toString().contains("/target/"))
                  ::iterator) {
        Matcher m = DECLARATION.matcher(Files.readString(file));
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }
}
