package io.herald.query;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** DESIGN.md: the query side reads the history through api-contracts and sees no other module. */
@AnalyzeClasses(packages = "io.herald.query", importOptions = ImportOption.DoNotIncludeTests.class)
class QuerySideBoundariesTest {

    @ArchTest
    static final ArchRule seesOnlyTheContracts = noClasses().that().resideInAPackage("io.herald.query..")
            .should().dependOnClassesThat().resideInAnyPackage("io.herald.command..", "io.herald.adapters..",
                    "io.herald.reconciliation..", "io.herald.deploy..");

    @ArchTest
    static final ArchRule usesNoJpa = noClasses().that().resideInAPackage("io.herald.query..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "javax.persistence..");
}
