package io.herald.query;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Rules inside the query side; the arrows between modules are stated once, in deploy's ModuleArrowsTest. */
@AnalyzeClasses(packages = "io.herald.query", importOptions = ImportOption.DoNotIncludeTests.class)
class QuerySideBoundariesTest {

    @ArchTest
    static final ArchRule usesNoJpa = noClasses().that().resideInAPackage("io.herald.query..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "javax.persistence..");
}
