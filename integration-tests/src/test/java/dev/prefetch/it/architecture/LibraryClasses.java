package dev.prefetch.it.architecture;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The main classes of the library modules (prefetch-core, format-parquet, format-orc,
 * prefetch-arrow), of the CLI and of the test kit, as ArchUnit sees them: test classes and test
 * jars left out.
 */
final class LibraryClasses {

  /** The packages a user may compile against; everything else under dev.prefetch is internal. */
  static final List<String> EXPORTED_PACKAGES =
      List.of(
          "dev.prefetch",
          "dev.prefetch.batch",
          "dev.prefetch.cache",
          "dev.prefetch.spi",
          "dev.prefetch.parquet",
          "dev.prefetch.orc",
          "dev.prefetch.arrow",
          "dev.prefetch.spark");

  private static final Pattern TEST_LOCATION =
      Pattern.compile(".*(/test-classes/|-tests\\.jar|/jdk21/).*");

  @GuardedBy("LibraryClasses.class")
  private static JavaClasses classes;

  private LibraryClasses() {}

  static synchronized JavaClasses get() {
    if (classes == null) {
      classes =
          new ClassFileImporter()
              .withImportOption(LibraryClasses::isMain)
              .importPackages("dev.prefetch");
    }
    return classes;
  }

  private static boolean isMain(Location location) {
    return !location.matches(TEST_LOCATION)
        && new ImportOption.DoNotIncludeTests().includes(location);
  }
}
