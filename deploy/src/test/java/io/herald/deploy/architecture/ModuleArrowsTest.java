package io.herald.deploy.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module arrows of DESIGN.md, checked on the compiled classes of every module. */
class ModuleArrowsTest {

    private static JavaClasses herald;

    @BeforeAll
    static void importClasses() {
        herald = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("io.herald");
    }

    @Test
    void apiContractsSeeNothingButAxonAndJacksonAnnotations() {
        ArchRuleDefinition.classes().that().resideInAPackage("io.herald.contracts..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.herald.contracts..", "java..", "org.axonframework.modelling.command",
                        "org.axonframework.serialization", "com.fasterxml.jackson.annotation")
                .check(herald);
    }

    @Test
    void adaptersNeverSeeTheCommandSideReconciliationOrQuerySide() {
        noClasses().that().resideInAPackage("io.herald.adapters..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.command..", "io.herald.reconciliation..", "io.herald.query..",
                        "io.herald.deploy..")
                .check(herald);
    }

    @Test
    void commandSideNeverSeesTheQuerySideOrReconciliation() {
        noClasses().that().resideInAPackage("io.herald.command..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.query..", "io.herald.reconciliation..", "io.herald.deploy..")
                .check(herald);
    }

    @Test
    void reconciliationNeverSeesTheCommandSideOrQuerySide() {
        noClasses().that().resideInAPackage("io.herald.reconciliation..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.command..", "io.herald.query..", "io.herald.deploy..")
                .allowEmptyShould(true)
                .check(herald);
    }

    @Test
    void querySideSeesOnlyTheContracts() {
        noClasses().that().resideInAPackage("io.herald.query..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.command..", "io.herald.reconciliation..", "io.herald.adapters..",
                        "io.herald.deploy..")
                .check(herald);
    }
}
