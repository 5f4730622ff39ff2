package io.herald.deploy.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module arrows of docs/architecture.md#modules, stated once for the whole build and checked on the
 * compiled classes of every module. Rules that mean something only inside one module live there.
 */
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
    void everyModuleDependsOnlyOnWhatItsRowAllows() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("api-contracts").definedBy("io.herald.contracts..")
                .layer("platform").definedBy("io.herald.platform..")
                .layer("channel-adapters").definedBy("io.herald.adapters..")
                .layer("provider-sandbox").definedBy("io.herald.sandbox..")
                .layer("command-side").definedBy("io.herald.command..")
                .layer("reconciliation").definedBy("io.herald.reconciliation..")
                .layer("query-side").definedBy("io.herald.query..")
                .layer("access").definedBy("io.herald.access..")
                .layer("deploy").definedBy("io.herald.deploy..")
                .layer("herald-client").definedBy("io.herald.client..")

                .whereLayer("api-contracts").mayNotAccessAnyLayer()
                .whereLayer("platform").mayOnlyAccessLayers("api-contracts")
                .whereLayer("channel-adapters").mayOnlyAccessLayers("api-contracts", "platform")
                // the simulators use the platform's JSON and data-folder helpers, nothing of Herald's logic
                .whereLayer("provider-sandbox").mayOnlyAccessLayers("api-contracts", "platform")
                .whereLayer("command-side").mayOnlyAccessLayers("api-contracts", "channel-adapters", "platform")
                // reconciliation drives the read-back process through the publishing core's port; never the reverse
                .whereLayer("reconciliation").mayOnlyAccessLayers("api-contracts", "channel-adapters", "platform",
                        "command-side")
                .whereLayer("query-side").mayOnlyAccessLayers("api-contracts", "platform")
                .whereLayer("access").mayOnlyAccessLayers("api-contracts", "platform")
                // nothing in src/main but the assembly sees the simulators
                .whereLayer("provider-sandbox").mayOnlyBeAccessedByLayers("deploy")
                .whereLayer("deploy").mayNotBeAccessedByAnyLayer()
                // the client speaks HTTP only: it shares no class with the server
                .whereLayer("herald-client").mayNotAccessAnyLayer()
                .whereLayer("herald-client").mayNotBeAccessedByAnyLayer()
                .check(herald);
    }

    /** The contract's own schema names are annotations too: no behaviour comes with them. */
    @Test
    void apiContractsSeeNothingButAxonJacksonAndSchemaAnnotations() {
        ArchRuleDefinition.classes().that().resideInAPackage("io.herald.contracts..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.herald.contracts..", "java..", "org.axonframework.modelling.command",
                        "org.axonframework.serialization", "com.fasterxml.jackson.annotation",
                        "io.swagger.v3.oas.annotations..")
                .check(herald);
    }
}
