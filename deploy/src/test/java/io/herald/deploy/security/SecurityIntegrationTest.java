package io.herald.deploy.security;

import io.herald.deploy.HeraldIntegrationTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared set-up of the security tests: workspaces with one key per role, made through the HTTP API. */
abstract class SecurityIntegrationTest extends HeraldIntegrationTest {

    static final List<String> ROLES = List.of("publisher", "operator", "auditor", "admin");

    /** A workspace with one key per role, a Facebook channel {@code fb-main} and one publication. */
    record SecuredWorkspace(String id, Map<String, String> keys, String publicationId) {
        String key(String role) {
            return keys.get(role);
        }
    }

    protected Response sendAs(String key, String method, String path, String body) {
        return sendAs(key, method, path, body, body == null ? null : "application/json", Map.of());
    }

    protected SecuredWorkspace securedWorkspace(String purpose, String pageToken) {
        String id = newWorkspace(purpose);
        createWorkspace(id);
        Map<String, String> keys = new LinkedHashMap<>();
        for (String role : ROLES) {
            keys.put(role, createKey(id, List.of(role), role + "-key"));
        }
        Response channel = sendAs(keys.get("admin"), "PUT", "/api/v1/workspaces/" + id + "/channels/fb-main",
                "{\"type\":\"facebook\",\"pageId\":\"1234567890\",\"pageAccessToken\":\"" + pageToken + "\"}");
        if (channel.status() != 201 && channel.status() != 200) {
            throw new IllegalStateException("channel not created: " + channel);
        }
        Response publication = sendAs(keys.get("publisher"), "POST", "/api/v1/workspaces/" + id + "/publications",
                "{\"calendarEntryId\":\"entry-1\",\"contentVersion\":1,\"channelId\":\"fb-main\","
                        + "\"action\":\"publish\",\"content\":{\"body\":\"Hello from " + id + "\"}}");
        if (publication.status() != 202) {
            throw new IllegalStateException("publication not requested: " + publication);
        }
        return new SecuredWorkspace(id, Map.copyOf(keys), publication.json().get("publicationId").asText());
    }
}
