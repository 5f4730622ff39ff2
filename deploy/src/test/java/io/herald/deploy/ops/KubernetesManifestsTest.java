package io.herald.deploy.ops;

import static io.herald.deploy.ops.DeploymentFiles.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

/** deploy/k8s read as kustomize would: probes, stopping, hardening, the generated Secret, the image. */
class KubernetesManifestsTest {

    private final Map<String, Object> kustomization = DeploymentFiles.yaml(DeploymentFiles.K8S.resolve("kustomization.yaml"));
    private final Map<String, Object> deployment = DeploymentFiles.yaml(DeploymentFiles.K8S.resolve("deployment.yaml"));
    private final Map<String, Object> application = DeploymentFiles.yaml(
            DeploymentFiles.REPOSITORY.resolve("deploy/src/main/resources/application.yml"));
    private final Map<String, Object> pod = at(deployment, "spec", "template", "spec");
    private final Map<String, Object> container = at(pod, "containers", 0);

    @Test
    void livenessAndReadinessAskTheirOwnHealthGroupsAndOnlyReadinessIncludesTheDatabase() {
        assertThat((String) at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat((String) at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        assertThat((String) at(container, "startupProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");

        Map<String, Object> health = at(application, "management", "endpoint", "health");
        assertThat((Boolean) at(health, "probes", "enabled")).isTrue();
        assertThat((String) at(health, "group", "liveness", "include")).doesNotContain("db");
        assertThat(List.of(((String) at(health, "group", "readiness", "include")).split(","))).contains("db");
    }

    @Test
    void theActuatorAnswersOnAManagementPortTheServiceDoesNotExpose() {
        List<Map<String, Object>> ports = at(container, "ports");
        Map<String, Object> management = ports.stream().filter(p -> "management".equals(p.get("name"))).findFirst()
                .orElseThrow();
        List<Map<String, Object>> env = at(container, "env");
        String configured = env.stream().filter(e -> "MANAGEMENT_SERVER_PORT".equals(e.get("name")))
                .map(e -> (String) e.get("value")).findFirst().orElseThrow();
        assertThat(Integer.parseInt(configured)).isEqualTo(management.get("containerPort"));
        String api = env.stream().filter(e -> "PORT".equals(e.get("name")))
                .map(e -> (String) e.get("value")).findFirst().orElseThrow();
        assertThat(configured).isNotEqualTo(api);
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            assertThat((String) at(container, probe, "httpGet", "port")).as(probe).isEqualTo("management");
        }
        Map<String, Object> service = DeploymentFiles.yaml(DeploymentFiles.K8S.resolve("service.yaml"));
        List<Map<String, Object>> exposed = at(service, "spec", "ports");
        assertThat(exposed).extracting(p -> p.get("targetPort")).containsExactly("http");
    }

    @Test
    void aStoppingPodPausesThenStopsGracefullyWithinItsGracePeriod() {
        List<String> preStop = at(container, "lifecycle", "preStop", "exec", "command");
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        long pause = Long.parseLong(preStop.get(1));
        assertThat((String) at(application, "server", "shutdown")).isEqualTo("graceful");
        Duration phase = DurationStyle.detectAndParse(at(application, "spring.lifecycle", "timeout-per-shutdown-phase"));
        // the web server's phase, then the attempts in flight (AttemptDrain), after the pause
        long needed = pause + 2 * phase.toSeconds();
        assertThat(((Number) pod.get("terminationGracePeriodSeconds")).longValue()).isGreaterThan(needed);
    }

    @Test
    void thePodRunsUnprivilegedWithTheRuntimesSeccompProfileAndNoCapabilities() {
        assertThat((String) at(pod, "securityContext", "seccompProfile", "type")).isEqualTo("RuntimeDefault");
        assertThat((Boolean) at(pod, "securityContext", "runAsNonRoot")).isTrue();
        Map<String, Object> security = at(container, "securityContext");
        assertThat((List<String>) at(security, "capabilities", "drop")).containsExactly("ALL");
        assertThat((Boolean) security.get("allowPrivilegeEscalation")).isFalse();
        assertThat((Boolean) security.get("readOnlyRootFilesystem")).isTrue();
        assertThat((Boolean) security.get("runAsNonRoot")).isTrue();
    }

    @Test
    void theSecretIsGeneratedFromAnUncommittedFileAndNoPlaceholdersAreCommitted() throws Exception {
        List<Map<String, Object>> generators = at(kustomization, "secretGenerator");
        assertThat(generators).hasSize(1);
        assertThat(generators.get(0).get("name")).isEqualTo("herald");
        List<String> envs = at(generators.get(0), "envs");
        assertThat(envs).containsExactly("secrets.env");
        assertThat(Files.readAllLines(DeploymentFiles.REPOSITORY.resolve(".gitignore")))
                .contains("deploy/k8s/" + envs.get(0));
        List<String> resources = at(kustomization, "resources");
        assertThat(resources).allSatisfy(r -> assertThat(DeploymentFiles.K8S.resolve(r)).exists())
                .noneSatisfy(r -> assertThat((String) DeploymentFiles.yaml(DeploymentFiles.K8S.resolve(r)).get("kind"))
                        .isEqualTo("Secret"));
        List<Map<String, Object>> envFrom = at(container, "envFrom");
        assertThat(envFrom).anySatisfy(source -> assertThat((String) at(source, "secretRef", "name")).isEqualTo("herald"));
    }

    @Test
    void theKustomizationNamesTheImageTheDeploymentUses() {
        List<Map<String, Object>> images = at(kustomization, "images");
        assertThat(images).extracting(i -> i.get("name")).containsExactly(container.get("image"));
        assertThat(images.get(0)).containsKeys("newName", "newTag");
    }

    @Test
    void aDisruptionBudgetKeepsOneOfThePodsAndSelectsThem() {
        List<String> resources = at(kustomization, "resources");
        assertThat(resources).contains("poddisruptionbudget.yaml");
        Map<String, Object> budget = DeploymentFiles.yaml(DeploymentFiles.K8S.resolve("poddisruptionbudget.yaml"));
        assertThat((String) budget.get("kind")).isEqualTo("PodDisruptionBudget");
        assertThat((Integer) at(budget, "spec", "minAvailable")).isPositive()
                .isLessThan((Integer) at(deployment, "spec", "replicas"));
        assertThat((Map<String, Object>) at(budget, "spec", "selector", "matchLabels"))
                .isEqualTo(at(deployment, "spec", "selector", "matchLabels"));
    }
}
