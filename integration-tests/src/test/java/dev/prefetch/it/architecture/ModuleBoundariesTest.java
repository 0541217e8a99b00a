package dev.prefetch.it.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

/**
 * What each module may use of the others: a format uses the core's public API and its SPI, never
 * the runtime or another internal package of the core; an engine module uses the core alone, and
 * asks the formats what it needs to know through the SPI (which format a file is, which columns
 * come as dictionaries, what a file declared beyond its batch types). prefetch-spark, whose class
 * path is Spark's, keeps the same rule in its own {@code ModuleBoundaryTest}.
 */
class ModuleBoundariesTest {

  @Test
  void theFormatsUseNoInternalPackageOfTheCore() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.prefetch.parquet..", "dev.prefetch.orc..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.prefetch.internal..")
        .check(LibraryClasses.get());
  }

  @Test
  void theArrowModuleUsesTheCoreAloneAndNoFormat() {
    noClasses()
        .that()
        .resideInAPackage("dev.prefetch.arrow..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.prefetch.parquet..",
            "dev.prefetch.orc..",
            "dev.prefetch.internal..",
            "org.apache.parquet..",
            "org.apache.orc..")
        .check(LibraryClasses.get());
  }

  @Test
  void theCoreKnowsNoFormat() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.prefetch", "dev.prefetch.batch", "dev.prefetch.cache")
        .or()
        .resideInAnyPackage("dev.prefetch.spi..", "dev.prefetch.internal..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.prefetch.parquet..",
            "dev.prefetch.orc..",
            "dev.prefetch.arrow..",
            "org.apache.parquet..",
            "org.apache.orc..")
        .check(LibraryClasses.get());
  }
}
