package io.herald.deploy.ops;

import static io.herald.deploy.ops.DeploymentFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml and the Kubernetes settings cannot run here, but every configuration they
 * set must be a key Herald or Spring Boot knows: a misspelt variable is ignored silently.
 */
class ComposeFileTest {

    private final Map<String, Object> compose = DeploymentFiles.yaml(DeploymentFiles.REPOSITORY.resolve("docker-compose.yml"));
    private final Set<String> keys = DeploymentFiles.relaxedConfigurationKeys();

    @Test
    void theMetadataKnowsTheKeysThisTestLooksFor() {
        // guards the test itself: without metadata every variable below would look unknown, or none
        assertThat(keys).contains("springdatasourceurl", "heraldsecretsencryptionkeys", "heraldsecuritysystemkey");
        assertThat(keys).doesNotContain("heraldsecretsencryptionkeyz");
    }

    @Test
    void everyHeraldAndSpringVariableOfTheComposeFileIsAConfigurationKey() {
        List<String> variables = new ArrayList<>();
        Map<String, Object> services = at(compose, "services");
        services.forEach((name, service) -> {
            Map<String, Object> environment = at(service, "environment");
            if (environment != null) {
                environment.keySet().stream().filter(DeploymentFiles::configurationVariable).forEach(variables::add);
            }
        });
        assertThat(variables).contains("SPRING_DATASOURCE_URL", "SPRING_CONFIG_IMPORT");
        assertThat(variables).allSatisfy(v -> assertThat(keys).as(v).contains(DeploymentFiles.relaxed(v)));
    }

    @Test
    void theSharedSecretsReachBothNodesUnderConfigurationKeys() {
        for (String node : List.of("herald-a", "herald-b")) {
            List<Map<String, Object>> secrets = at(compose, "services", node, "secrets");
            List<String> targets = secrets.stream().map(s -> (String) s.get("target")).toList();
            assertThat(targets).as(node).containsExactlyInAnyOrder("spring.datasource.password",
                    "herald.secrets.encryption-keys", "herald.security.system-key", "herald.audit.signing-key");
            assertThat(targets).allSatisfy(t -> assertThat(keys).as(t).contains(DeploymentFiles.relaxed(t)));
            assertThat((String) at(compose, "services", node, "environment", "SPRING_CONFIG_IMPORT"))
                    .contains("configtree:/run/secrets/");
        }
        Map<String, Object> declared = at(compose, "secrets");
        // taken from the environment of `docker compose up`: nothing secret is in the file
        declared.values().forEach(s -> assertThat((String) at(s, "environment")).isNotBlank());
    }

    @Test
    void theActuatorAnswersOnAManagementPortPublishedOnLoopbackOnly() {
        for (String node : List.of("herald-a", "herald-b")) {
            String management = at(compose, "services", node, "environment", "MANAGEMENT_SERVER_PORT");
            assertThat(management).as(node).isNotBlank().isNotEqualTo(at(compose, "services", node, "environment", "PORT"));
            List<String> published = at(compose, "services", node, "ports");
            assertThat(published).as(node).filteredOn(p -> p.endsWith(":" + management))
                    .isNotEmpty().allSatisfy(p -> assertThat(p).startsWith("127.0.0.1:"));
            assertThat(published).as(node).anySatisfy(p -> assertThat(p).endsWith(":8080"));
            List<String> check = at(compose, "services", node, "healthcheck", "test");
            assertThat(String.join(" ", check)).contains("/dev/tcp/127.0.0.1/" + management + " ");
        }
    }

    @Test
    void theKubernetesSettingsAreConfigurationKeysToo() throws Exception {
        Map<String, Object> data = at(DeploymentFiles.yaml(DeploymentFiles.K8S.resolve("configmap.yaml")), "data");
        List<String> variables = new ArrayList<>(data.keySet());
        Files.readAllLines(DeploymentFiles.K8S.resolve("secrets.env.example")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.substring(0, line.indexOf('=')))
                .forEach(variables::add);

        assertThat(variables).contains("HERALD_SECRETS_ENCRYPTIONKEYS", "SPRING_DATASOURCE_PASSWORD");
        assertThat(variables.stream().filter(DeploymentFiles::configurationVariable).toList())
                .allSatisfy(v -> assertThat(keys).as(v).contains(DeploymentFiles.relaxed(v)));
    }
}
