package dev.prefetch.it.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No package of the library, the CLI or the test kit depends on itself through other packages.
 *
 * <p>Each package is a slice, but for the core's public packages ({@code dev.prefetch}, {@code
 * batch}, {@code cache}, {@code spi}): they are one published surface whose types name each other
 * by design (a {@code BatchReader} returns a {@code RecordBatch}, a batch knows its {@code
 * DataFile}), so they count as one slice. A public package may call into its own module's internals
 * (a facade delegating to its implementation, {@code Readers} opening a reader through the
 * runtime); those edges are not cycles of the design and are left out. Every other edge counts, so
 * an internal package that reaches back into another one that uses it fails this test.
 */
class PackageCyclesTest {

  private static final List<String> CORE_API =
      List.of("dev.prefetch", "dev.prefetch.batch", "dev.prefetch.cache", "dev.prefetch.spi");

  @Test
  void thePackagesOfTheLibraryAndTheCliAreFreeOfCycles() {
    slices()
        .assignedFrom(new OnePackageOneSlice())
        .should()
        .beFreeOfCycles()
        .ignoreDependency(
            resideInAnyPackage(CORE_API.toArray(String[]::new)),
            resideInAPackage("dev.prefetch.internal.."))
        .ignoreDependency(
            resideInAPackage("dev.prefetch.parquet"), resideInAPackage("dev.prefetch.parquet.."))
        .ignoreDependency(
            resideInAPackage("dev.prefetch.orc"), resideInAPackage("dev.prefetch.orc.."))
        .ignoreDependency(
            resideInAPackage("dev.prefetch.arrow"), resideInAPackage("dev.prefetch.arrow.."))
        .ignoreDependency(
            resideInAPackage("dev.prefetch.spark"), resideInAPackage("dev.prefetch.spark.."))
        .check(LibraryClasses.get());
  }

  /** Each package its own slice, the core's public packages one. */
  private static final class OnePackageOneSlice implements SliceAssignment {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String pkg = javaClass.getPackageName();
      if (!pkg.startsWith("dev.prefetch")) {
        return SliceIdentifier.ignore();
      }
      return SliceIdentifier.of(CORE_API.contains(pkg) ? "core API" : pkg);
    }

    @Override
    public String getDescription() {
      return "packages of dev.prefetch (the core's public packages as one)";
    }
  }
}
