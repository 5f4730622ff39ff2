package io.herald.deploy.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.LinkedHashMap;
import java.util.Map;

/** Examples of the contract's main bodies, as docs/api.md shows them, set on their component schemas. */
final class ApiExamples {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Map<String, String> EXAMPLES = Map.of(
            "PublicationRequest", """
                    {"calendarEntryId":"entry-42","contentVersion":3,"channelId":"fb-main","action":"publish",
                     "content":{"title":"Spring fair","body":"Join us on Saturday","link":"https://example.org/fair",
                                "firstComment":"Tickets at the door"},
                     "scheduledAt":"2026-12-01T09:00:00Z"}""",
            "PublicationView", """
                    {"publicationId":"pub_01JD3Q7R2M8X","workspaceId":"acme","calendarEntryId":"entry-42",
                     "contentVersion":3,"channelId":"blog","channelType":"wordpress","action":"publish",
                     "status":"SUCCEEDED","providerRef":{"id":"4711","url":"https://blog.example/?p=4711"},
                     "steps":[{"step":"create_post","status":"SUCCEEDED","attempts":1}],
                     "attempts":[{"attemptNo":1,"startedAt":"2026-12-01T09:00:01Z","outcome":"SUCCEEDED",
                                  "httpStatus":200}],
                     "reconciliations":[],"needsDecision":false,"updatedAt":"2026-12-01T09:00:02Z"}""",
            "DecisionRequest", """
                    {"decision":"confirm_published","providerRef":{"id":"4711","url":"https://blog.example/?p=4711"},
                     "note":"checked the Page by hand"}""",
            "ChannelConnectionRequest", """
                    {"type":"facebook","pageId":"1234567890","pageAccessToken":"EAAB…"}""",
            "WebhookRequest", """
                    {"url":"https://calendar.example/hooks/herald",
                     "events":["publication.succeeded","publication.needs_decision"],"enabled":true}""",
            "WorkspaceRequest", """
                    {"workspaceId":"acme","name":"ACME"}""",
            "KeyRequest", """
                    {"roles":["publisher"],"label":"calendar"}""",
            "MediaView", """
                    {"mediaId":"med_9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     "contentType":"image/png","bytes":48213,"width":1200,"height":630,
                     "createdAt":"2026-12-01T08:55:00Z"}""");

    private ApiExamples() {
    }

    static void add(OpenAPI openApi) {
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        EXAMPLES.forEach((name, json) -> {
            Schema<?> schema = schemas.get(name);
            if (schema != null) {
                schema.example(parse(json));
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String json) {
        try {
            return JSON.readValue(json, LinkedHashMap.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an example of the API document is not JSON", e);
        }
    }
}
