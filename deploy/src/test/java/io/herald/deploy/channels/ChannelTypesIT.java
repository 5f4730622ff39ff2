package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET …/channel-types} over HTTP: every registered type, in name order, with how it connects
 * here (the sandbox configures every provider's app), the fields its start and its form ask for;
 * readable with the roles that read the channels, not by an auditor alone.
 */
class ChannelTypesIT extends HeraldIntegrationTest {

    @Test
    void theServerListsItsChannelTypesAndHowEachConnects() {
        String ws = newWorkspace("channel-types");
        String path = "/api/v1/workspaces/" + ws + "/channel-types";
        Response answer = send("GET", path, null, null);
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        answer.json().forEach(t -> names.add(t.get("type").asText()));
        assertThat(names).containsExactly("bluesky", "facebook", "instagram", "linkedin", "mastodon", "threads",
                "wordpress");
        JsonNode mastodon = type(answer.json(), "mastodon");
        assertThat(mastodon.get("connect").asText()).isEqualTo("oauth");
        assertThat(mastodon.get("available").asBoolean()).isTrue();
        assertThat(mastodon.has("unavailableReason")).isFalse();
        assertThat(mastodon.get("startFields")).hasSize(1);
        assertThat(mastodon.get("startFields").get(0).get("name").asText()).isEqualTo("instanceUrl");
        assertThat(mastodon.get("startFields").get(0).get("required").asBoolean()).isTrue();
        assertThat(type(answer.json(), "facebook").get("startFields")).isEmpty();
        JsonNode bluesky = type(answer.json(), "bluesky");
        assertThat(bluesky.get("connect").asText()).isEqualTo("form");
        assertThat(bluesky.get("label").asText()).isEqualTo("Bluesky");
        assertThat(bluesky.get("fields").toString()).contains("\"name\":\"appPassword\",\"label\":\"App password\","
                + "\"secret\":true,\"required\":true");
        assertThat(type(answer.json(), "wordpress").get("connect").asText()).isEqualTo("form");

        String publisher = createKey(ws, List.of("publisher"), "reader");
        String auditor = createKey(ws, List.of("auditor"), "auditor");
        assertThat(sendAs(publisher, "GET", path, null, null, Map.of()).status()).isEqualTo(200);
        assertThat(sendAs(auditor, "GET", path, null, null, Map.of()).status()).isEqualTo(403);
        assertThat(sendAs(null, "GET", path, null, null, Map.of()).status()).isEqualTo(401);
    }

    private static JsonNode type(JsonNode types, String name) {
        for (JsonNode t : types) {
            if (t.get("type").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no channel type " + name + " in " + types);
    }
}
