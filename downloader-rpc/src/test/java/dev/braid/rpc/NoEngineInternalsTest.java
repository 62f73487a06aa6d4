package dev.braid.rpc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This face, its tests included, uses braid-core through its API only, never its engine (docs/architecture.md, "Packages"). */
class NoEngineInternalsTest {
  @Test
  void namesNothingUnderCoreInternal() {
    noClasses().should().dependOnClassesThat().resideInAPackage("dev.braid.core.internal..")
        .check(new ClassFileImporter().importPaths(Path.of("target", "classes"), Path.of("target", "test-classes")));
  }
}
