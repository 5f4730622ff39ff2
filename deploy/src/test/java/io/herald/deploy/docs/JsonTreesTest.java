package io.herald.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The contract test's comparison sees every change to the committed document, and nothing else. */
class JsonTreesTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode contract() throws IOException {
        return YAML.readTree(Files.readString(OpenApiContractIT.CONTRACT, StandardCharsets.UTF_8));
    }

    @Test
    void theFileAsJsonWithOtherKeyOrderIsTheSameDocument() throws IOException {
        JsonNode yaml = contract();
        JsonNode json = JSON.readTree(JSON.writeValueAsString(yaml));
        assertThat(JsonTrees.differences("", json, yaml)).isEmpty();
        assertThat(JsonTrees.differences("", YAML.readTree("{b: 1, a: [x, y]}"), JSON.readTree(
                "{\"a\":[\"x\",\"y\"],\"b\":1.0}"))).isEmpty();
    }

    @Test
    void aRenamedOperationARemovedAnswerOrAnAddedPathIsADifference() throws IOException {
        JsonNode file = contract();
        ObjectNode served = file.deepCopy();
        ObjectNode paths = (ObjectNode) served.get("paths");
        ((ObjectNode) paths.get("/api/v1/workspaces/{ws}/publications").get("post")).put("operationId", "request");
        ((ObjectNode) paths.get("/api/v1/workspaces/{ws}/publications/{id}").get("get").get("responses"))
                .remove("404");
        paths.putObject("/api/v1/new");
        assertThat(JsonTrees.differences("", served, file)).containsExactlyInAnyOrder(
                "/paths//api/v1/workspaces/{ws}/publications/post/operationId: served \"request\","
                        + " file \"requestPublication\"",
                "/paths//api/v1/workspaces/{ws}/publications/{id}/get/responses/404 only in the file",
                "/paths//api/v1/new only served");
    }
}
