package io.herald.adapters;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ModuleBoundariesTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.herald.adapters");

    @Test
    void adaptersNeverSeeTheOtherModules() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                "io.herald.command..", "io.herald.reconciliation..", "io.herald.query..", "io.herald.deploy..")
                .check(classes);
    }

    @Test
    void thePortKnowsNoProvider() {
        noClasses().that().resideInAPackage("io.herald.adapters.port..").should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.adapters.facebook..", "io.herald.adapters.linkedin..",
                        "io.herald.adapters.wordpress..", "io.herald.sandbox..", "io.herald.adapters.http..")
                .check(classes);
    }

    @Test
    void adaptersDoNotDependOnTheSandbox() {
        noClasses().that().resideInAnyPackage("io.herald.adapters.facebook..", "io.herald.adapters.linkedin..",
                        "io.herald.adapters.wordpress..", "io.herald.adapters.http..")
                .should().dependOnClassesThat().resideInAPackage("io.herald.sandbox..")
                .check(classes);
    }
}
