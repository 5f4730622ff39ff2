package io.herald.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.herald.deploy.HeraldIntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The committed contract (api-contracts/src/main/resources/openapi.yaml) is the document the running
 * application serves. Run with {@code -Dherald.openapi.write=true} to rewrite the file from the app.
 */
class OpenApiContractIT extends HeraldIntegrationTest {

    static final Path CONTRACT = Path.of("..", "api-contracts", "src", "main", "resources", "openapi.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theServedDocumentIsTheCommittedFile() throws IOException {
        Response served = send("GET", "/v3/api-docs.yaml", null, null);
        assertThat(served.status()).as(served.toString()).isEqualTo(200);
        if (Boolean.getBoolean("herald.openapi.write")) {
            Files.writeString(CONTRACT, served.body(), StandardCharsets.UTF_8);
        }
        JsonNode file = YAML.readTree(Files.readString(CONTRACT, StandardCharsets.UTF_8));
        JsonNode yaml = YAML.readTree(served.body());
        JsonNode json = send("GET", "/v3/api-docs", null, null).json();

        assertThat(JsonTrees.differences("", yaml, file))
                .as("the served document differs from %s; rewrite it with -Dherald.openapi.write=true", CONTRACT)
                .isEmpty();
        assertThat(JsonTrees.differences("", json, file)).as("the JSON form differs from the file").isEmpty();
    }

    @Test
    void everyOperationHasAMeaningfulIdATagAndTheProblemAnswers() {
        JsonNode doc = send("GET", "/v3/api-docs", null, null).json();
        assertThat(doc.path("paths").has("/sandbox/_admin/tokens")).isFalse();
        List<String> ids = new ArrayList<>();
        doc.path("paths").fields().forEachRemaining(path -> {
            assertThat(path.getKey()).doesNotStartWith("/sandbox");
            path.getValue().fields().forEachRemaining(op -> {
                JsonNode operation = op.getValue();
                String where = op.getKey() + " " + path.getKey();
                assertThat(operation.path("operationId").asText()).as(where).isNotBlank().doesNotContain("_");
                assertThat(operation.path("summary").asText()).as(where + ": describe it in ApiOperations")
                        .isNotBlank();
                assertThat(operation.path("tags")).as(where).isNotEmpty();
                if (path.getKey().startsWith("/api/")) {
                    assertThat(operation.path("responses").has("401")).as(where).isTrue();
                }
                ids.add(operation.path("operationId").asText());
            });
        });
        assertThat(ids).doesNotHaveDuplicates()
                .contains("requestPublication", "getPublication", "listPublications", "executePublication",
                        "decidePublication")
                .doesNotContain("request", "execute", "decide", "list", "get");
        JsonNode list = operation(doc, "listPublications");
        JsonNode limit = null;
        for (JsonNode parameter : list.path("parameters")) {
            if (parameter.path("name").asText().equals("limit")) {
                limit = parameter;
            }
        }
        assertThat(limit).isNotNull();
        assertThat(limit.path("schema").path("type").asText()).isEqualTo("integer");
        JsonNode problem = doc.path("components").path("schemas").path("Problem");
        assertThat(problem.path("properties").has("code")).isTrue();
        assertThat(operation(doc, "requestPublication").path("responses").path("422").path("content")
                .has("application/problem+json")).isTrue();
        assertThat(doc.path("components").path("securitySchemes").path("apiKey").path("scheme").asText())
                .isEqualTo("bearer");
    }

    @Test
    void aValueTheServerRefusesForItsPatternTheContractRefusesToo() throws IOException {
        // the served document, which the first test holds equal to the committed file
        JsonNode served = send("GET", "/v3/api-docs", null, null).json();
        String pattern = served.path("components").path("schemas").path("WorkspaceRequest").path("properties")
                .path("name").path("pattern").asText();
        assertThat(pattern).isNotBlank();
        // a JSON Schema validator searches for the pattern anywhere in the value
        Pattern contract = Pattern.compile(pattern);
        String workspace = newWorkspace("pattern");
        for (String name : List.of("AC\u0001ME", "\u007fACME", "ACME\u001f")) {
            Response refused = sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    json.writeValueAsString(Map.of("workspaceId", workspace, "name", name)), "application/json",
                    Map.of());
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(contract.matcher(name).find()).as("the contract's %s on %s", pattern, json.writeValueAsString(name)).isFalse();
        }
        Response accepted = sendAs(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                json.writeValueAsString(Map.of("workspaceId", workspace, "name", "ACME, Inc. – Ünïcode")),
                "application/json", Map.of());
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
        assertThat(contract.matcher("ACME, Inc. – Ünïcode").find()).isTrue();
    }

    private static JsonNode operation(JsonNode doc, String id) {
        for (JsonNode path : doc.path("paths")) {
            for (JsonNode op : path) {
                if (op.path("operationId").asText().equals(id)) {
                    return op;
                }
            }
        }
        throw new AssertionError("no operation " + id);
    }
}
