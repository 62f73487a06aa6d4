package dev.braid.core;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The core's layers (docs/architecture.md, "Packages"): the API on top, the engine below it under
 * {@code internal}, and no engine package importing its importer.
 */
class LayersTest {
  /** The module's main classes (the tests run in the module's folder): a read of the folder, no class path scan. */
  private static final JavaClasses CORE = new ClassFileImporter().importPath(Path.of("target", "classes"));

  @Test
  void theEnginePackagesFormNoCycle() {
    slices().matching("dev.braid.core.internal.(*)..").should().beFreeOfCycles().check(CORE);
  }

  @Test
  void onlyWhereTheEngineIsBuiltDoesTheApiNameIt() {
    // Braid and its builder build the engine; every other API type is a value, a handle or an
    // exception the engine takes from above
    noClasses().that().resideInAnyPackage("dev.braid.core", "dev.braid.core.rules..")
        .and(not(belongToAnyOf(Braid.class, BraidBuilder.class)))
        .should().dependOnClassesThat().resideInAPackage("dev.braid.core.internal..")
        .check(CORE);
  }

  @Test
  void theEngineNamesNotWhatBuildsIt() {
    // the engine takes values from the API, never the two classes above it: no class cycle through them
    noClasses().that().resideInAPackage("dev.braid.core.internal..")
        .should().dependOnClassesThat(belongToAnyOf(Braid.class, BraidBuilder.class))
        .check(CORE);
  }
}
