package io.herald.adapters;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Rules inside the adapters module; the arrows between modules are stated once, in deploy's ModuleArrowsTest. */
class ModuleBoundariesTest {

    private static final String[] WIRE_CODE = {"io.herald.adapters.facebook..", "io.herald.adapters.linkedin..",
            "io.herald.adapters.wordpress..", "io.herald.adapters.http..", "io.herald.adapters.outbound..",
            "io.herald.adapters.port.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.herald.adapters");

    @Test
    void thePortKnowsNoProvider() {
        noClasses().that().resideInAPackage("io.herald.adapters.port..").should().dependOnClassesThat()
                .resideInAnyPackage("io.herald.adapters.facebook..", "io.herald.adapters.linkedin..",
                        "io.herald.adapters.wordpress..", "io.herald.adapters.http..")
                .check(classes);
    }

    /** The wire code speaks HTTP as a client only: no Spring MVC, no servlet types, no Spring beans. */
    @Test
    void wireCodeNeverSeesSpringMvcOrTheServletApi() {
        noClasses().that().resideInAnyPackage(WIRE_CODE).should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework.web..", "org.springframework.http..",
                        "org.springframework.stereotype..", "org.springframework.context..", "jakarta.servlet..")
                .check(classes);
    }
}
