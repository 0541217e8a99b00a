package dev.prefetch.it.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The library's public API names no internal type: what a user can reach from a public or protected
 * member of a public type in an exported package ({@link LibraryClasses#EXPORTED_PACKAGES}) is
 * itself exported, or comes from outside the project (the JDK, Hadoop, a format library).
 *
 * <p>The jars carry an {@code Automatic-Module-Name} but no module descriptor
 * (docs/ARCHITECTURE.md, "Modules and exports" says why), so the JVM does not enforce the exports:
 * this test does.
 */
class PublicApiTest {

  @Test
  void noPublicSignatureOfAnExportedPackageNamesATypeOfAnInternalPackage() {
    Set<String> leaks = new TreeSet<>();
    Set<String> checked = new TreeSet<>();
    for (JavaClass type : LibraryClasses.get()) {
      if (!isApi(type)) {
        continue;
      }
      checked.add(type.getName());
      List<JavaType> exposed = new ArrayList<>();
      type.getRawSuperclass().ifPresent(exposed::add);
      exposed.addAll(type.getInterfaces());
      for (JavaField field : type.getFields()) {
        if (visible(field.getModifiers())) {
          exposed.add(field.getType());
        }
      }
      for (JavaCodeUnit unit : type.getCodeUnits()) {
        if (!visible(unit.getModifiers()) || unit.getName().startsWith("lambda$")) {
          continue;
        }
        exposed.add(unit.getReturnType());
        exposed.addAll(unit.getParameterTypes());
        unit.getThrowsClause().getTypes().forEach(exposed::add);
      }
      for (JavaType t : exposed) {
        for (JavaClass raw : t.getAllInvolvedRawTypes()) {
          if (isInternal(raw)) {
            leaks.add(type.getName() + " exposes " + raw.getName());
          }
        }
      }
    }
    assertThat(checked)
        .contains(
            "dev.prefetch.Readers",
            "dev.prefetch.batch.RecordBatch",
            "dev.prefetch.parquet.ParquetOptions",
            "dev.prefetch.orc.OrcOptions",
            "dev.prefetch.arrow.ArrowBatches");
    assertThat(leaks).isEmpty();
  }

  @Test
  void theRuntimeAndTheInternalPackagesAreNotExported() {
    assertThat(LibraryClasses.EXPORTED_PACKAGES)
        .noneMatch(p -> p.contains(".internal") || p.contains(".runtime"));
  }

  private static boolean isApi(JavaClass type) {
    return LibraryClasses.EXPORTED_PACKAGES.contains(type.getPackageName())
        && visible(type.getModifiers())
        && (type.getEnclosingClass().isEmpty() || isApi(type.getEnclosingClass().get()));
  }

  private static boolean isInternal(JavaClass type) {
    JavaClass base = type.getBaseComponentType();
    return base.getPackageName().startsWith("dev.prefetch")
        && !LibraryClasses.EXPORTED_PACKAGES.contains(base.getPackageName());
  }

  private static boolean visible(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }
}
