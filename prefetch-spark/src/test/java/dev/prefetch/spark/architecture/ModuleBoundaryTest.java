package dev.prefetch.spark.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The Spark source uses the core alone: it asks the SPI which format a file is and which of a
 * format's options name columns, and never reaches into a format module or the core's internals, so
 * a third format needs no change here.
 */
class ModuleBoundaryTest {

  @Test
  void theSparkSourceUsesTheCoreAloneAndNoFormat() {
    JavaClasses source =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.prefetch.spark");
    noClasses()
        .that()
        .resideInAPackage("dev.prefetch.spark..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.prefetch.parquet..", "dev.prefetch.orc..", "dev.prefetch.internal..")
        .check(source);
  }
}
