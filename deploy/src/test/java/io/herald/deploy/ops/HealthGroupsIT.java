package io.herald.deploy.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The probes Kubernetes asks: liveness says only that the process works, readiness also that the
 * database answers; and /actuator/info names the build (version, commit) to the system key.
 */
class HealthGroupsIT extends HeraldIntegrationTest {

    @Test
    void livenessLeavesTheDatabaseOutAndReadinessTakesItIn() {
        JsonNode liveness = probe("/actuator/health/liveness");
        JsonNode readiness = probe("/actuator/health/readiness");

        assertThat(liveness.get("status").asText()).isEqualTo("UP");
        assertThat(readiness.get("status").asText()).isEqualTo("UP");
        assertThat(liveness.path("components").has("db")).as(liveness.toString()).isFalse();
        assertThat(liveness.path("components").has("livenessState")).as(liveness.toString()).isTrue();
        assertThat(readiness.path("components").has("db")).as(readiness.toString()).isTrue();
        assertThat(readiness.path("components").has("readinessState")).as(readiness.toString()).isTrue();
    }

    @Test
    void infoNamesTheBuildToTheSystemKeyOnly() {
        Response info = sendAs(SYSTEM_KEY, "GET", "/actuator/info", null, null, Map.of());
        assertThat(info.status()).as(info.toString()).isEqualTo(200);
        assertThat(info.json().path("java").has("version")).as(info.toString()).isTrue();
        assertThat(info.json().path("build").path("version").asText()).as(info.toString()).isNotEmpty();
        assertThat(info.json().path("build").path("artifact").asText()).isEqualTo("deploy");
        assertThat(sendAs(null, "GET", "/actuator/info", null, null, Map.of()).status()).isEqualTo(401);
    }

    private JsonNode probe(String path) {
        // the groups show their components to anyone: names and states only, never details
        Response answer = sendAs(null, "GET", path, null, null, Map.of());
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.json();
    }
}
